// The descriptions and parameter schemas the banking_knowledge tools are offered with, exactly as the reference
// sends them (pydantic's schema of each tool's signature and docstring), by tool name.
import type { ToolParameters } from '../../src/core/environment/toolkit.ts';

export interface KnowledgeToolSchema {
  readonly description: string;
  readonly parameters: ToolParameters;
}

/** KnowledgeTools' listed tools. */
export const KNOWLEDGE_TOOL_SCHEMAS = {
  "transfer_to_human_agents": {
    "description": "Transfer the user to a human agent.\n\nThe proper transfer reason enum can be found in the knowledge base: search it before calling this tool to select the proper applicable reason.",
    "parameters": {
      "properties": {
        "summary": {
          "description": "A summary of the user's issue and what was attempted before transfer.",
          "title": "Summary",
          "type": "string"
        },
        "reason": {
          "default": "other",
          "description": "The specific reason code for the transfer.",
          "enum": [
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
            "other"
          ],
          "title": "Reason",
          "type": "string"
        }
      },
      "required": [
        "summary"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "get_current_time": {
    "description": "Get the current time. Use this to get the current timestamp for logging verification records.",
    "parameters": {
      "properties": {},
      "title": "parameters",
      "type": "object"
    }
  },
  "get_user_information_by_id": {
    "description": "Get the information (date of birth, email, phone number, address) for a user by their user id.",
    "parameters": {
      "properties": {
        "user_id": {
          "description": "The ID of the user",
          "title": "User Id",
          "type": "string"
        }
      },
      "required": [
        "user_id"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "get_user_information_by_name": {
    "description": "Get the information (date of birth, email, phone number, address) for a user by their name. Case Sensitive.",
    "parameters": {
      "properties": {
        "customer_name": {
          "description": "The name of the user",
          "title": "Customer Name",
          "type": "string"
        }
      },
      "required": [
        "customer_name"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "get_user_information_by_email": {
    "description": "Get the information (date of birth, email, phone number, address) for a user by their email.",
    "parameters": {
      "properties": {
        "email": {
          "description": "The email of the user",
          "title": "Email",
          "type": "string"
        }
      },
      "required": [
        "email"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "change_user_email": {
    "description": "Change the email address for a user.",
    "parameters": {
      "properties": {
        "user_id": {
          "description": "The ID of the user whose email should be changed",
          "title": "User Id",
          "type": "string"
        },
        "new_email": {
          "description": "The new email address to set for the user",
          "title": "New Email",
          "type": "string"
        }
      },
      "required": [
        "user_id",
        "new_email"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "get_referrals_by_user": {
    "description": "Get all referrals made by a user.",
    "parameters": {
      "properties": {
        "user_id": {
          "description": "The ID of the user (referrer) to look up referrals for",
          "title": "User Id",
          "type": "string"
        }
      },
      "required": [
        "user_id"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "get_credit_card_transactions_by_user": {
    "description": "Get all credit card transactions for a user.",
    "parameters": {
      "properties": {
        "user_id": {
          "description": "The ID of the user to look up transactions for",
          "title": "User Id",
          "type": "string"
        }
      },
      "required": [
        "user_id"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "get_credit_card_accounts_by_user": {
    "description": "Get all credit card accounts for a user.\n\nReturns information about each credit card account including card type,\ndate opened, current balance, and reward points.",
    "parameters": {
      "properties": {
        "user_id": {
          "description": "The ID of the user to look up credit card accounts for",
          "title": "User Id",
          "type": "string"
        }
      },
      "required": [
        "user_id"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "log_verification": {
    "description": "Log a verification record after successfully verifying a user's identity.\n\nCall this tool after you have verified a user by confirming 2 out of 4 identity fields\n(date of birth, email, phone number, address). This creates an audit record of the verification.",
    "parameters": {
      "properties": {
        "name": {
          "description": "The verified user's full name",
          "title": "Name",
          "type": "string"
        },
        "user_id": {
          "description": "The verified user's ID",
          "title": "User Id",
          "type": "string"
        },
        "address": {
          "description": "The verified user's address",
          "title": "Address",
          "type": "string"
        },
        "email": {
          "description": "The verified user's email",
          "title": "Email",
          "type": "string"
        },
        "phone_number": {
          "description": "The verified user's phone number",
          "title": "Phone Number",
          "type": "string"
        },
        "date_of_birth": {
          "description": "The verified user's date of birth (MM/DD/YYYY format)",
          "title": "Date Of Birth",
          "type": "string"
        },
        "time_verified": {
          "description": "The timestamp of the verification (e.g., \"2025-11-14 03:40:00 EST\")",
          "title": "Time Verified",
          "type": "string"
        }
      },
      "required": [
        "name",
        "user_id",
        "address",
        "email",
        "phone_number",
        "date_of_birth",
        "time_verified"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "give_discoverable_user_tool": {
    "description": "Pass a tool to the user so they can execute it themselves.\n\nUse this when the knowledge base indicates that the user should perform\nan action themselves (e.g., \"to do X, have the user call tool_name(args)\").\n\nThe user will then be able to call `call_discoverable_tool` with the same\ntool name and arguments to simulate executing the action.",
    "parameters": {
      "properties": {
        "discoverable_tool_name": {
          "description": "The name of the discoverable tool (e.g., \"open_webpage\", \"navigate_to_section\")",
          "title": "Discoverable Tool Name",
          "type": "string"
        },
        "arguments": {
          "default": "{}",
          "description": "JSON string of arguments for the tool (e.g., '{\"url\": \"https://example.com\"}')",
          "title": "Arguments",
          "type": "string"
        }
      },
      "required": [
        "discoverable_tool_name"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "unlock_discoverable_agent_tool": {
    "description": "Unlock an agent discoverable tool that was found in the knowledge base.\n\nUse this when the knowledge base indicates that you have access to a specialized\ninternal tool. The knowledge base will tell you the tool name to unlock.\n\nAfter unlocking, you can use the tool by calling `call_discoverable_agent_tool` with\nthe tool name and required arguments.",
    "parameters": {
      "properties": {
        "agent_tool_name": {
          "description": "The name of the agent discoverable tool to unlock\n(e.g., \"calculate_apr_adjustment_7842\")",
          "title": "Agent Tool Name",
          "type": "string"
        }
      },
      "required": [
        "agent_tool_name"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "call_discoverable_agent_tool": {
    "description": "Call an agent discoverable tool that you have previously unlocked.\n\nUse this after unlocking a tool with `unlock_discoverable_agent_tool`. The knowledge base\nwill tell you which tool to use and what arguments to provide.",
    "parameters": {
      "properties": {
        "agent_tool_name": {
          "description": "The name of the agent discoverable tool to call",
          "title": "Agent Tool Name",
          "type": "string"
        },
        "arguments": {
          "default": "{}",
          "description": "JSON string of arguments for the tool (e.g., '{\"user_id\": \"abc123\"}')",
          "title": "Arguments",
          "type": "string"
        }
      },
      "required": [
        "agent_tool_name"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "list_discoverable_agent_tools": {
    "description": "List all agent discoverable tools that you have called.\n\nUse this to see what specialized tools you have used.",
    "parameters": {
      "properties": {},
      "title": "parameters",
      "type": "object"
    }
  }
} satisfies Record<string, KnowledgeToolSchema>;

/** KnowledgeUserTools' listed tools. */
export const KNOWLEDGE_USER_TOOL_SCHEMAS = {
  "apply_for_credit_card": {
    "description": "Apply for a credit card.",
    "parameters": {
      "properties": {
        "card_type": {
          "description": "Type of credit card",
          "title": "Card Type",
          "type": "string"
        },
        "customer_name": {
          "description": "Full legal name",
          "title": "Customer Name",
          "type": "string"
        },
        "annual_income": {
          "description": "Annual income in USD",
          "title": "Annual Income",
          "type": "number"
        },
        "rho_bank_subscription": {
          "default": false,
          "description": "Whether user has Rho-Bank+ subscription",
          "title": "Rho Bank Subscription",
          "type": "boolean"
        }
      },
      "required": [
        "card_type",
        "customer_name",
        "annual_income"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "submit_referral": {
    "description": "Submit a referral request to refer someone to open an account.",
    "parameters": {
      "properties": {
        "user_id": {
          "description": "Your user ID (the referrer)",
          "title": "User Id",
          "type": "string"
        },
        "account_type": {
          "description": "The type of account you are referring someone to open",
          "title": "Account Type",
          "type": "string"
        }
      },
      "required": [
        "user_id",
        "account_type"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "call_discoverable_user_tool": {
    "description": "Call a tool that was given to you by the agent.\n\nUse this when the agent has instructed you to perform an action using\na discoverable tool. The agent will have told you the tool name and arguments.\n\nThis simulates you performing the action in the real world (e.g., opening\na webpage, navigating to a section, clicking a button).",
    "parameters": {
      "properties": {
        "discoverable_tool_name": {
          "description": "The name of the discoverable tool to call (e.g., \"open_webpage\")",
          "title": "Discoverable Tool Name",
          "type": "string"
        },
        "arguments": {
          "default": "{}",
          "description": "JSON string of arguments for the tool (e.g., '{\"url\": \"https://example.com\"}')",
          "title": "Arguments",
          "type": "string"
        }
      },
      "required": [
        "discoverable_tool_name"
      ],
      "title": "parameters",
      "type": "object"
    }
  },
  "list_discoverable_user_tools": {
    "description": "List all tools that have been given to you by the agent.\n\nUse this to see what actions the agent has instructed you to perform.",
    "parameters": {
      "properties": {},
      "title": "parameters",
      "type": "object"
    }
  },
  "request_human_agent_transfer": {
    "description": "Request to be transferred to a human agent for assistance.\n\nUse this when you want to speak with a real human agent instead of\nthe automated system. Each request will be logged and processed.",
    "parameters": {
      "properties": {},
      "title": "parameters",
      "type": "object"
    }
  },
  "submit_transaction": {
    "description": "Submit a credit card transaction.",
    "parameters": {
      "properties": {
        "user_id": {
          "description": "Your user ID",
          "title": "User Id",
          "type": "string"
        },
        "credit_card_type": {
          "description": "Type of credit card used (e.g., \"Bronze Rewards Card\", \"Gold Rewards Card\")",
          "title": "Credit Card Type",
          "type": "string"
        },
        "merchant_name": {
          "description": "Name of the merchant where the purchase was made",
          "title": "Merchant Name",
          "type": "string"
        },
        "amount": {
          "description": "Transaction amount in USD (e.g., 127.43)",
          "title": "Amount",
          "type": "number"
        },
        "category": {
          "description": "Transaction category (e.g., \"Groceries\", \"Dining\", \"Travel\", \"Software\", \"Entertainment\", \"Utilities\", \"Shopping\")",
          "title": "Category",
          "type": "string"
        }
      },
      "required": [
        "user_id",
        "credit_card_type",
        "merchant_name",
        "amount",
        "category"
      ],
      "title": "parameters",
      "type": "object"
    }
  }
} satisfies Record<string, KnowledgeToolSchema>;
