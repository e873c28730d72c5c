// The descriptions and parameter schemas the banking_knowledge tools are offered with, exactly as the reference
// sends them (pydantic's schema of each tool's signature and docstring), by tool name. Keys keep pydantic's order,
// since the request payload is sent byte for byte.
import type { ToolParameters } from '../../src/core/llm/tool-schema.ts';

export interface KnowledgeToolSchema {
  readonly description: string;
  readonly parameters: ToolParameters;
}

/** `TransferReasonLiteral`: the reasons transfer_to_human_agents accepts. */
export const TRANSFER_REASONS = [
  "fraud_or_security_concern",
  "account_closure_request",
  "deceased_account_holder",
  "legal_or_regulatory_matter",
  "account_ownership_dispute",
  "complex_billing_dispute",
  "abusive_customer_behavior",
  "third_party_inquiry",
  "technical_system_error",
  "unconfirmed_external_communication",
  "customer_demands_after_unavailable_offer_refusal",
  "kb_search_unsuccessful_customer_requests_transfer",
  "specialized_department_required",
  "accessibility_or_special_needs",
  "customer_frustrated_demands_human",
  "supervisor_request_service_complaint",
  "customer_requests_human_no_specific_reason",
  "request_completed_customer_wants_human_followup",
  "other",
];

/** One parameter: `{default?, description, enum?, title, type}` with the title pydantic derives from its name. */
const prop = (description: string, type: string, extra: { default?: unknown; enum?: readonly string[] } = {}) =>
  (name: string) => ({
    ...('default' in extra ? { default: extra.default } : {}),
    description,
    ...(extra.enum ? { enum: [...extra.enum] } : {}),
    title: name.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' '),
    type,
  });

/** The parameters object; `required` defaults to every parameter, and is left out when empty. */
const params = (
  properties: Readonly<Record<string, (name: string) => Record<string, unknown>>>,
  required: readonly string[] = Object.keys(properties),
): ToolParameters => {
  const built = Object.fromEntries(Object.entries(properties).map(([name, make]) => [name, make(name)]));
  return required.length === 0
    ? { properties: built, title: 'parameters', type: 'object' }
    : { properties: built, required: [...required], title: 'parameters', type: 'object' };
};

/** KnowledgeTools' listed tools. */
export const KNOWLEDGE_TOOL_SCHEMAS = {
  transfer_to_human_agents: {
    description:
      "Transfer the user to a human agent.\n\nThe proper transfer reason enum can be found in the knowledge base: search it before calling this tool to select the proper applicable reason.",
    parameters: params(
      {
        summary: prop("A summary of the user's issue and what was attempted before transfer.", "string"),
        reason: prop("The specific reason code for the transfer.", "string", { default: "other", enum: TRANSFER_REASONS }),
      },
      ["summary"],
    ),
  },
  get_current_time: {
    description:
      "Get the current time. Use this to get the current timestamp for logging verification records.",
    parameters: params({}, []),
  },
  get_user_information_by_id: {
    description:
      "Get the information (date of birth, email, phone number, address) for a user by their user id.",
    parameters: params(
      {
        user_id: prop("The ID of the user", "string"),
      },
    ),
  },
  get_user_information_by_name: {
    description:
      "Get the information (date of birth, email, phone number, address) for a user by their name. Case Sensitive.",
    parameters: params(
      {
        customer_name: prop("The name of the user", "string"),
      },
    ),
  },
  get_user_information_by_email: {
    description:
      "Get the information (date of birth, email, phone number, address) for a user by their email.",
    parameters: params(
      {
        email: prop("The email of the user", "string"),
      },
    ),
  },
  change_user_email: {
    description:
      "Change the email address for a user.",
    parameters: params(
      {
        user_id: prop("The ID of the user whose email should be changed", "string"),
        new_email: prop("The new email address to set for the user", "string"),
      },
    ),
  },
  get_referrals_by_user: {
    description:
      "Get all referrals made by a user.",
    parameters: params(
      {
        user_id: prop("The ID of the user (referrer) to look up referrals for", "string"),
      },
    ),
  },
  get_credit_card_transactions_by_user: {
    description:
      "Get all credit card transactions for a user.",
    parameters: params(
      {
        user_id: prop("The ID of the user to look up transactions for", "string"),
      },
    ),
  },
  get_credit_card_accounts_by_user: {
    description:
      "Get all credit card accounts for a user.\n\nReturns information about each credit card account including card type,\ndate opened, current balance, and reward points.",
    parameters: params(
      {
        user_id: prop("The ID of the user to look up credit card accounts for", "string"),
      },
    ),
  },
  log_verification: {
    description:
      "Log a verification record after successfully verifying a user's identity.\n\nCall this tool after you have verified a user by confirming 2 out of 4 identity fields\n(date of birth, email, phone number, address). This creates an audit record of the verification.",
    parameters: params(
      {
        name: prop("The verified user's full name", "string"),
        user_id: prop("The verified user's ID", "string"),
        address: prop("The verified user's address", "string"),
        email: prop("The verified user's email", "string"),
        phone_number: prop("The verified user's phone number", "string"),
        date_of_birth: prop("The verified user's date of birth (MM/DD/YYYY format)", "string"),
        time_verified: prop("The timestamp of the verification (e.g., \"2025-11-14 03:40:00 EST\")", "string"),
      },
    ),
  },
  give_discoverable_user_tool: {
    description:
      "Pass a tool to the user so they can execute it themselves.\n\nUse this when the knowledge base indicates that the user should perform\nan action themselves (e.g., \"to do X, have the user call tool_name(args)\").\n\nThe user will then be able to call `call_discoverable_tool` with the same\ntool name and arguments to simulate executing the action.",
    parameters: params(
      {
        discoverable_tool_name: prop("The name of the discoverable tool (e.g., \"open_webpage\", \"navigate_to_section\")", "string"),
        arguments: prop("JSON string of arguments for the tool (e.g., '{\"url\": \"https://example.com\"}')", "string", { default: "{}" }),
      },
      ["discoverable_tool_name"],
    ),
  },
  unlock_discoverable_agent_tool: {
    description:
      "Unlock an agent discoverable tool that was found in the knowledge base.\n\nUse this when the knowledge base indicates that you have access to a specialized\ninternal tool. The knowledge base will tell you the tool name to unlock.\n\nAfter unlocking, you can use the tool by calling `call_discoverable_agent_tool` with\nthe tool name and required arguments.",
    parameters: params(
      {
        agent_tool_name: prop("The name of the agent discoverable tool to unlock\n(e.g., \"calculate_apr_adjustment_7842\")", "string"),
      },
    ),
  },
  call_discoverable_agent_tool: {
    description:
      "Call an agent discoverable tool that you have previously unlocked.\n\nUse this after unlocking a tool with `unlock_discoverable_agent_tool`. The knowledge base\nwill tell you which tool to use and what arguments to provide.",
    parameters: params(
      {
        agent_tool_name: prop("The name of the agent discoverable tool to call", "string"),
        arguments: prop("JSON string of arguments for the tool (e.g., '{\"user_id\": \"abc123\"}')", "string", { default: "{}" }),
      },
      ["agent_tool_name"],
    ),
  },
  list_discoverable_agent_tools: {
    description:
      "List all agent discoverable tools that you have called.\n\nUse this to see what specialized tools you have used.",
    parameters: params({}, []),
  },
} satisfies Record<string, KnowledgeToolSchema>;

/** KnowledgeUserTools' listed tools. */
export const KNOWLEDGE_USER_TOOL_SCHEMAS = {
  apply_for_credit_card: {
    description:
      "Apply for a credit card.",
    parameters: params(
      {
        card_type: prop("Type of credit card", "string"),
        customer_name: prop("Full legal name", "string"),
        annual_income: prop("Annual income in USD", "number"),
        rho_bank_subscription: prop("Whether user has Rho-Bank+ subscription", "boolean", { default: false }),
      },
      ["card_type", "customer_name", "annual_income"],
    ),
  },
  submit_referral: {
    description:
      "Submit a referral request to refer someone to open an account.",
    parameters: params(
      {
        user_id: prop("Your user ID (the referrer)", "string"),
        account_type: prop("The type of account you are referring someone to open", "string"),
      },
    ),
  },
  call_discoverable_user_tool: {
    description:
      "Call a tool that was given to you by the agent.\n\nUse this when the agent has instructed you to perform an action using\na discoverable tool. The agent will have told you the tool name and arguments.\n\nThis simulates you performing the action in the real world (e.g., opening\na webpage, navigating to a section, clicking a button).",
    parameters: params(
      {
        discoverable_tool_name: prop("The name of the discoverable tool to call (e.g., \"open_webpage\")", "string"),
        arguments: prop("JSON string of arguments for the tool (e.g., '{\"url\": \"https://example.com\"}')", "string", { default: "{}" }),
      },
      ["discoverable_tool_name"],
    ),
  },
  list_discoverable_user_tools: {
    description:
      "List all tools that have been given to you by the agent.\n\nUse this to see what actions the agent has instructed you to perform.",
    parameters: params({}, []),
  },
  request_human_agent_transfer: {
    description:
      "Request to be transferred to a human agent for assistance.\n\nUse this when you want to speak with a real human agent instead of\nthe automated system. Each request will be logged and processed.",
    parameters: params({}, []),
  },
  submit_transaction: {
    description:
      "Submit a credit card transaction.",
    parameters: params(
      {
        user_id: prop("Your user ID", "string"),
        credit_card_type: prop("Type of credit card used (e.g., \"Bronze Rewards Card\", \"Gold Rewards Card\")", "string"),
        merchant_name: prop("Name of the merchant where the purchase was made", "string"),
        amount: prop("Transaction amount in USD (e.g., 127.43)", "number"),
        category: prop("Transaction category (e.g., \"Groceries\", \"Dining\", \"Travel\", \"Software\", \"Entertainment\", \"Utilities\", \"Shopping\")", "string"),
      },
    ),
  },
} satisfies Record<string, KnowledgeToolSchema>;
