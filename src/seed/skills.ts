import { regExpLiteral } from '../domain/regexp-literal';

// Specializations for synthetic records. A record's skills come from two places: technologies
// named in its class's label and titles ("Snowflake Data Engineer" -> Snowflake), which keeps a Go
// developer from being tagged Spring Boot, and a generic pool for its subfamily.

/** Technologies recognised in class labels and titles. "Go=Golang": canonical name, then aliases. */
const TECHNOLOGIES = `Java; Spring Boot; Python; Django; FastAPI; Go=Golang; Node.js; NestJS; TypeScript;
  .NET; C#; ASP.NET; Ruby on Rails=Rails; Ruby; PHP; Laravel; Symfony; Scala; Akka; Rust; Kotlin;
  C++; React=ReactJS; React Native; Angular; Vue.js=Vue; Nuxt.js; JavaScript; WCAG; Section 508;
  Swift; SwiftUI; Flutter; Dart; Xamarin; .NET MAUI; Unity; Unreal Engine=UE5; Vulkan; DirectX;
  AUTOSAR; Yocto; Linux; Embedded C; MuleSoft; Boomi; TIBCO; IBM MQ; EDI; COBOL; z/OS; CICS;
  RPGLE; Solidity; Web3; Snowflake; dbt; Databricks; Apache Spark=Spark; PySpark; Informatica;
  SSIS; Talend; DataStage; AWS; AWS Glue; Azure; Azure Data Factory; Azure Synapse; Microsoft Fabric;
  GCP=Google Cloud; BigQuery; Apache Kafka=Kafka; Apache Flink=Flink; Confluent; Hadoop; Hive;
  Cloudera; SQL; SSRS; Power BI; DAX; Tableau; Looker; LookML; ArcGIS; Google Analytics 4;
  Adobe Analytics; SAS; Oracle; Exadata; SQL Server; PostgreSQL=Postgres; MySQL; MariaDB; MongoDB;
  Cassandra; PL/SQL; T-SQL; Erwin; Collibra; RAG; Dialogflow; RLHF; Selenium; Cypress; Playwright;
  Appium; REST Assured; Apache JMeter=JMeter; LoadRunner; Tricentis Tosca=Tosca; Datadog; Splunk;
  Dynatrace; Terraform; Ansible; Kubernetes; OpenShift; Jenkins; CI/CD; VMware; vSphere; NetApp;
  Veeam; Commvault; Citrix; VMware Horizon; Microsoft Sentinel; QRadar; Tenable; Qualys; Palo Alto;
  Zscaler; CrowdStrike; EDR; Okta; SailPoint; CyberArk; SOX; SOC 2; FedRAMP; NIST 800-171; CMMC;
  OneTrust; Cisco; CCNP; Aruba; SD-WAN; Cisco Viptela=Viptela; 5G; LTE; Microsoft Teams; SCCM;
  Microsoft Intune=Intune; MECM; Active Directory; Entra ID; Microsoft 365=M365=Office 365;
  Exchange Online; Jamf; macOS; RHEL; ITIL; FPGA; VHDL; Verilog; UVM; RTL; Altium; ROS; PLC; SCADA;
  IoT; SAP ABAP=ABAP; SAP FICO=FICO=FI/CO; SAP S/4HANA=S/4HANA; SAP SD; SAP MM; SAP Basis; HANA;
  SuccessFactors; SAP BTP; SAP CPI; SAP Fiori=Fiori; SAP BW=BW/4HANA; SAP Analytics Cloud;
  Oracle Fusion; Oracle EBS=EBS; Oracle HCM Cloud=Oracle HCM; Oracle Integration Cloud=OIC;
  Workday HCM; Workday Studio; Workday Financials; Workday Prism Analytics; Workday Payroll;
  Dynamics 365=D365; X++; Dynamics AX; Business Central; Dynamics NAV; NetSuite; SuiteScript;
  Infor CloudSuite=Infor; JD Edwards=JDE; Apex; Lightning Web Components=LWC; Marketing Cloud=SFMC;
  Salesforce CPQ=CPQ; Salesforce Commerce Cloud=SFCC; ServiceNow ITOM=ITOM; ServiceNow HRSD=HRSD;
  ServiceNow ITSM; HubSpot; Marketo; Adobe Campaign; Adobe Target; Adobe Experience Platform;
  Segment; Zendesk; Pega; Appian; Power Apps; Power Automate; Mendix; OutSystems; UiPath;
  Automation Anywhere; Blue Prism; Adobe Experience Manager=AEM; SharePoint; SPFx; Shopify; Liquid;
  Magento=Adobe Commerce; WordPress; WooCommerce; Sitecore; Epic; Cerner=Oracle Health; HL7; FHIR;
  Rhapsody; Guidewire; PolicyCenter; ClaimCenter; Duck Creek; Murex; Temenos; SAFe; PMP; Figma;
  Articulate Storyline; Celonis; BPMN; Medicaid; Capital Markets; Payments; TOGAF`;

/** Generic skills per subfamily id, used to fill a record's specializations. */
// prettier-ignore
const SUBFAMILY_POOLS: Readonly<Partial<Record<string, string>>> = {
  backend_engineering: 'REST APIs; Microservices; SQL; Docker; Kubernetes; CI/CD; AWS; Unit Testing',
  frontend_engineering: 'JavaScript; TypeScript; HTML5; CSS3; Responsive Design; Jest; Webpack',
  mobile_engineering: 'Mobile UI; REST APIs; App Store Deployment; Firebase; CI/CD; Unit Testing',
  full_stack_engineering: 'REST APIs; SQL; TypeScript; Docker; AWS; Microservices; CI/CD',
  game_development: 'C++; C#; Game Engines; Performance Optimization; Multiplayer Networking',
  embedded_software: 'C; C++; RTOS; Microcontrollers; ARM Cortex-M; SPI; I2C; Device Drivers',
  software_architecture: 'System Design; Microservices; Cloud Architecture; Event-Driven Architecture; API Design',
  integration_engineering: 'API Integration; REST APIs; SOAP; XML; JSON; Message Queues',
  mainframe_development: 'JCL; DB2; VSAM; CICS; z/OS; TSO/ISPF',
  blockchain_engineering: 'Ethereum; Solidity; Smart Contracts; Web3.js; Hardhat; DeFi',
  data_engineering: 'SQL; Python; ETL; Data Modeling; Apache Airflow; Data Warehousing; Apache Spark',
  data_analytics: 'SQL; Excel; Data Visualization; Dashboards; Python; KPI Reporting',
  data_science: 'Python; R; Statistics; Machine Learning; SQL; A/B Testing; Pandas',
  database_administration: 'Performance Tuning; Backup and Recovery; High Availability; SQL; Replication',
  data_architecture_governance: 'Data Modeling; Data Governance; Metadata Management; Data Lineage; SQL',
  machine_learning_engineering: 'Python; PyTorch; TensorFlow; MLflow; Kubernetes; Feature Engineering',
  generative_ai_engineering: 'LLMs; Python; RAG; LangChain; Vector Databases; Prompt Engineering',
  applied_ai: 'Python; PyTorch; Deep Learning; TensorFlow; OpenCV; Transformers',
  ai_data_services: 'Data Labeling; Quality Assurance; Technical Writing; Python; Fact-Checking',
  test_automation: 'Test Automation; Java; Python; CI/CD; BDD; Cucumber; TestNG; API Testing',
  manual_testing: 'Test Cases; Regression Testing; JIRA; Defect Tracking; UAT; Agile',
  specialized_testing: 'Test Planning; SQL; JIRA; Test Automation; Defect Tracking',
  test_leadership: 'Test Strategy; Test Planning; Agile; JIRA; Team Leadership; Test Automation',
  cloud_engineering: 'Terraform; Networking; IAM; Linux; Infrastructure as Code; Cloud Migration',
  devops_engineering: 'CI/CD; Docker; Kubernetes; Terraform; Jenkins; GitHub Actions; Linux; Bash',
  site_reliability_engineering: 'Linux; Kubernetes; Prometheus; Grafana; Incident Management; Python',
  infrastructure_engineering: 'Windows Server; Linux; VMware; Networking; Storage; Disaster Recovery',
  security_operations: 'SIEM; Incident Response; Splunk; Threat Detection; MITRE ATT&CK; EDR',
  security_engineering: 'Cloud Security; Zero Trust; Threat Modeling; SAST; DAST; Firewalls; Python',
  offensive_security: 'Penetration Testing; Burp Suite; OSCP; Metasploit; OWASP Top 10',
  identity_access_management: 'IAM; SSO; SAML; OAuth 2.0; MFA; Active Directory; Access Reviews',
  governance_risk_compliance: 'NIST CSF; ISO 27001; Risk Assessment; SOC 2; Audit; Policy Writing',
  network_engineering: 'Routing; Switching; BGP; OSPF; Firewalls; TCP/IP; Cisco',
  telecommunications: 'LTE; 5G; RF Planning; Fiber Optics; SIP; Telecom Networks',
  network_operations: 'Network Monitoring; Troubleshooting; Ticketing; Cabling; TCP/IP; SolarWinds',
  technical_support: 'Windows 11; Active Directory; Troubleshooting; ServiceNow; Microsoft 365; Hardware Support',
  systems_administration: 'Windows Server; Linux; PowerShell; Bash; Active Directory; Patching; VMware',
  it_service_management: 'ITIL; ServiceNow; Change Management; Incident Management; SLA Management',
  digital_design: 'Verilog; SystemVerilog; VHDL; RTL Design; Timing Analysis; Synopsys',
  hardware_systems: 'Schematic Capture; PCB Layout; Oscilloscopes; Altium Designer; Analog Circuits',
  robotics_iot_controls: 'PLC Programming; SCADA; ROS; C++; Python; Sensors; Industrial Automation',
  sap: 'SAP S/4HANA; SAP ECC; SAP Implementation; SAP Fiori; SAP Integration; Functional Specifications',
  oracle_applications: 'Oracle Cloud; Oracle EBS; PL/SQL; BI Publisher; Oracle Integration Cloud',
  workday: 'Workday; Workday Implementation; EIB; Business Processes; Workday Security; Calculated Fields',
  microsoft_dynamics: 'Dynamics 365; Power Platform; Azure DevOps; Data Migration; Business Process Design',
  other_erp_platforms: 'ERP Implementation; Data Migration; Business Process Design; Financial Reporting',
  salesforce: 'Salesforce; Apex; Lightning Web Components; SOQL; Flows; Sales Cloud; Service Cloud',
  servicenow: 'ServiceNow; JavaScript; ITSM; Glide API; Flow Designer; CMDB',
  customer_platforms: 'Marketing Automation; CRM; Email Marketing; Customer Data; Integrations; SQL',
  low_code_platforms: 'Low-Code Development; BPM; Workflow Automation; REST APIs; SQL',
  intelligent_automation: 'RPA; Process Automation; Python; Document Understanding; .NET; SQL',
  content_commerce_platforms: 'CMS; JavaScript; HTML; CSS; E-commerce; REST APIs',
  healthcare_it: 'EHR; Epic; HL7; Clinical Workflows; HIPAA; Go-Live Support',
  financial_services_platforms: 'Core Banking; Insurance Systems; Gosu; Java; Trading Systems; SQL',
  product_management: 'Product Roadmaps; Agile; User Stories; JIRA; Stakeholder Management; Product Discovery',
  product_operations: 'Product Analytics; SQL; Go-to-Market; Amplitude; Experimentation',
  it_project_management: 'PMP; Agile; Waterfall; MS Project; Risk Management; Budget Management; JIRA',
  program_management: 'Program Management; Roadmapping; Stakeholder Management; Risk Management; SAFe',
  agile_delivery: 'Scrum; SAFe; Kanban; JIRA; Confluence; Agile Coaching',
  business_systems_analysis: 'Requirements Gathering; User Stories; SQL; Process Mapping; UAT; JIRA; Visio',
  industry_business_analysis: 'Requirements Gathering; Process Mapping; SQL; Data Analysis; UAT',
  process_and_change: 'Process Mapping; Lean Six Sigma; Change Management; BPMN; Stakeholder Management',
  ux_design: 'Figma; User Research; Wireframing; Prototyping; Usability Testing; Design Thinking',
  product_visual_design: 'Figma; Adobe Creative Suite; Visual Design; Prototyping; Design Systems',
  design_systems_service_design: 'Design Systems; Figma; Service Blueprints; WCAG; Journey Mapping',
  technical_writing: 'Technical Writing; Markdown; Docs-as-Code; Confluence; DITA; API Documentation',
  learning_and_enablement: 'Instructional Design; Articulate 360; LMS; ADDIE; Training Delivery',
  engineering_leadership: 'Engineering Management; Hiring; Agile; System Design; Roadmapping; Mentoring',
  it_leadership: 'IT Strategy; Budget Management; Vendor Management; ITIL; Team Leadership',
  data_ai_leadership: 'Data Strategy; Machine Learning; Team Leadership; Data Governance; Roadmapping',
  presales_engineering: 'Solution Design; Technical Demos; RFP Responses; Proof of Concept; Cloud',
  customer_engineering: 'Customer Onboarding; APIs; SQL; Troubleshooting; SaaS; Technical Documentation',
};

/** For postings with no classification, and subfamilies added to the taxonomy later. */
export const GENERIC_SKILLS = [
  'Communication',
  'Microsoft Excel',
  'Documentation',
  'Stakeholder Management',
];

const split = (spec: string): string[] =>
  spec
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** Canonical name and a matcher that finds any alias as a whole word ("Java" not in "JavaScript"). */
const MATCHERS: readonly (readonly [string, RegExp])[] = split(TECHNOLOGIES).map((entry) => {
  const names = entry.split('=');
  const alternatives = names.map(regExpLiteral).join('|');
  return [names[0] ?? entry, new RegExp(`(?<![A-Za-z0-9])(?:${alternatives})(?![A-Za-z0-9])`, 'i')];
});

/** Technologies a class's label and titles name, most specific (longest) first. */
export function technologiesOf(texts: readonly string[]): string[] {
  const haystack = texts.join(' | ');
  const found = MATCHERS.filter(([, re]) => re.test(haystack)).map(([name]) => name);
  return [...new Set(found)].sort((a, b) => b.length - a.length);
}

export function subfamilyPool(subfamilyId: string): string[] {
  const spec = SUBFAMILY_POOLS[subfamilyId];
  return spec ? split(spec) : GENERIC_SKILLS;
}
