// Reference request payloads from tau2-spec.md Appendix A.4 (mock tool schemas) and B.4 (message lists), one
// JSON line each as the reference code printed them; system prompts are abbreviated exactly as in the spec.

const jsonl = (text: string): unknown[] =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);

export const MOCK_AGENT_TOOLS = jsonl(String.raw`
{"type": "function", "function": {"name": "create_task", "description": "Create a new task for a user.", "parameters": {"properties": {"user_id": {"description": "The ID of the user creating the task", "title": "User Id", "type": "string"}, "title": {"description": "The title of the task", "title": "Title", "type": "string"}, "description": {"default": null, "description": "Optional description of the task", "title": "Description", "type": "string"}}, "required": ["user_id", "title"], "title": "parameters", "type": "object"}}}
{"type": "function", "function": {"name": "get_users", "description": "Get all users in the database.", "parameters": {"properties": {}, "title": "parameters", "type": "object"}}}
{"type": "function", "function": {"name": "update_task_status", "description": "Update the status of a task.", "parameters": {"properties": {"task_id": {"description": "The ID of the task to update", "title": "Task Id", "type": "string"}, "status": {"description": "The new status of the task", "enum": ["pending", "completed"], "title": "Status", "type": "string"}}, "required": ["task_id", "status"], "title": "parameters", "type": "object"}}}
{"type": "function", "function": {"name": "transfer_to_human_agents", "description": "Transfer the user to a human agent, with a summary of the user's issue.\n\nOnly transfer if\n -  the user explicitly asks for a human agent\n -  given the policy and the available tools, you cannot solve the user's issue.", "parameters": {"properties": {"summary": {"description": "A summary of the user's issue.", "title": "Summary", "type": "string"}}, "required": ["summary"], "title": "parameters", "type": "object"}}}
`);

export const MOCK_USER_TOOLS = jsonl(String.raw`
{"type": "function", "function": {"name": "check_notifications", "description": "Check all notifications in the user's inbox.", "parameters": {"properties": {}, "title": "parameters", "type": "object"}}}
{"type": "function", "function": {"name": "dismiss_notification", "description": "Dismiss (mark as read) a notification.", "parameters": {"properties": {"notification_id": {"description": "The ID of the notification to dismiss.", "title": "Notification Id", "type": "string"}}, "required": ["notification_id"], "title": "parameters", "type": "object"}}}
`);

export const USER_SYSTEM = "# User Simulation Guidelines\n\nYou are playing the role of a  … s to create a task to track this important meeting. Create a new task called 'Important Meeting' for user_1.\n</scenario>";
export const AGENT_SYSTEM = '<instructions>\nYou are a customer service agent that helps t …  to delete tasks. You should transfer the a human agent.\n5. If the user asks for a compliment, compliment them\n</policy>';

/** Mock run, first call (user simulator). */
export const B4_MOCK_FIRST_USER_CALL = jsonl(String.raw`
{"role": "system", "content": "# User Simulation Guidelines\n\nYou are playing the role of a  … s to create a task to track this important meeting. Create a new task called 'Important Meeting' for user_1.\n</scenario>"}
{"role": "user", "content": "Hi! How can I help you today?"}
`);

/** Mock run, second agent call. */
export const B4_MOCK_SECOND_AGENT_CALL = jsonl(String.raw`
{"role": "system", "content": "<instructions>\nYou are a customer service agent that helps t …  to delete tasks. You should transfer the a human agent.\n5. If the user asks for a compliment, compliment them\n</policy>"}
{"role": "assistant", "content": "Hi! How can I help you today?", "tool_calls": null}
{"role": "user", "content": "Hi, please create a task called 'Important Meeting' for user_1."}
{"role": "assistant", "content": null, "tool_calls": [{"id": "call_a1", "name": "create_task", "function": {"name": "create_task", "arguments": "{\"user_id\": \"user_1\", \"title\": \"Important Meeting\"}"}, "type": "function"}]}
{"role": "tool", "content": "{\"task_id\": \"task_2\", \"title\": \"Important Meeting\", \"description\": null, \"status\": \"pending\"}", "tool_call_id": "call_a1"}
`);

/** Mock run, last user call. */
export const B4_MOCK_LAST_USER_CALL = jsonl(String.raw`
{"role": "system", "content": "# User Simulation Guidelines\n\nYou are playing the role of a  … s to create a task to track this important meeting. Create a new task called 'Important Meeting' for user_1.\n</scenario>"}
{"role": "user", "content": "Hi! How can I help you today?"}
{"role": "assistant", "content": "Hi, please create a task called 'Important Meeting' for user_1.", "tool_calls": null}
{"role": "user", "content": "The task 'Important Meeting' has been created successfully (task_2)."}
`);

/** Telecom run, the user simulator's last request after its system prompt (role-flipped, own tool calls). */
export const B4_TELECOM_LAST_USER_CALL_AFTER_SYSTEM = jsonl(String.raw`
{"role": "user", "content": "Hi! How can I help you today?"}
{"role": "assistant", "content": "My phone shows No Service.", "tool_calls": null}
{"role": "user", "content": "Please toggle airplane mode off."}
{"role": "assistant", "content": null, "tool_calls": [{"id": "call_u1", "name": "toggle_airplane_mode", "function": {"name": "toggle_airplane_mode", "arguments": "{}"}, "type": "function"}]}
{"role": "tool", "content": "Airplane Mode is now OFF.\nStatus Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%", "tool_call_id": "call_u1"}
{"role": "assistant", "content": null, "tool_calls": [{"id": "call_u2", "name": "check_status_bar", "function": {"name": "check_status_bar", "arguments": "{}"}, "type": "function"}]}
{"role": "tool", "content": "Status Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%", "tool_call_id": "call_u2"}
`);

/** Telecom user tools used in the B.4 telecom run (Appendix A.3). */
export const TELECOM_USER_TOOLS_SUBSET = jsonl(String.raw`
{"type": "function", "function": {"name": "check_status_bar", "description": "Shows what icons are currently visible in your phone's status bar (the area at the top of the screen). Displays network signal strength, mobile data status (enabled, disabled, data saver), Wi-Fi status, and battery level.", "parameters": {"properties": {}, "title": "parameters", "type": "object"}}}
{"type": "function", "function": {"name": "toggle_airplane_mode", "description": "Toggles Airplane Mode ON or OFF. When ON, it disconnects all wireless communications including cellular, Wi-Fi, and Bluetooth.\n\nReturns the new state of airplane_mode.", "parameters": {"properties": {}, "title": "parameters", "type": "object"}}}
`);
