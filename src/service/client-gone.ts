/**
 * The client closed its connection before its page was charged (contract §16.1: what is paid for
 * is what is delivered). Thrown by the service just before it sends a charge, and answered by
 * nothing: there is no one to answer. The request log records it as 499, aborted.
 */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before its page was charged');
    this.name = 'ClientGone';
  }
}

/** Whether the client has left, read at the moment it is asked (an AbortSignal is one). */
export interface ClientPresence {
  readonly aborted: boolean;
}

/** Throws ClientGone when `gone` says the client has left. */
export function unlessGone(gone: ClientPresence | undefined): void {
  if (gone?.aborted) throw new ClientGone();
}
