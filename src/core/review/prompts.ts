// The review prompts, byte for byte (reference: src/tau2/evaluator/review_llm_judge.py,
// review_llm_judge_user_only.py and auth_classifier.py, half-duplex). Hand-kept text: the reviewer model must
// read exactly what the reference sends.

/** The full review's system prompt, sent as written (its doubled braces included). */
export const FULL_REVIEW_SYSTEM_PROMPT = `# Goal
Assess this conversation to determine if the user simulator or the agent made any errors during the interaction.

## Overview
We are supervising a Customer Service Agent.
Given a **Scenario**, we simulate interactions between a **User Simulator** and the **Agent**.
During an interaction, the User Simulator sends messages to the Agent.
The Agent responds to the User Simulator's messages, and may also perform actions using **Tools**.

An **interaction trajectory** is a sequence of **turns** that can be one of the following:
- **User Turn**: A message from the User Simulator to the Agent
- **Agent Turn**: A message from the Agent to the User Simulator
- **Tool Turn**: A tool call from the Agent to the Tool Server
- **Tool Response Turn**: A tool response from the Tool Server to the Agent

## Guidelines

### General rules
For all interactions:
- The Agent must follow a **Policy**. This Policy specifies the rules according to which the agent must act.
- The User Simulator must adhere to **Simulation guidelines**. These guidelines specify how the User Simulator should interpret its instructions.

### Scenario specifications for an interaction
A particular interaction is based on a **Scenario**.
A Scenario defines:
- The **User Instructions**.
- The **Actions** that the Agent is expected to take.
- **Natural Language Assertions** that the Agent must satisfy.

## How to assess the conversation

### User Turn Errors:
For each User Turn, check if the User Simulator:
- Followed the Simulation guidelines
- Followed the User instructions
- Performed its task correctly
- Acted consistently with previous turns

### Important User Review Principles:
1. **Fact-check every user claim**: For every factual detail the user provides (names, emails, zip codes, sizes, colors, product descriptions, etc.), verify it appears in or is derivable from the <User Instructions>. Any detail not grounded in the instructions is a hallucination — even if it sounds plausible. When the user lacks information, the correct behavior is to say "I don't know" or ask the agent.

2. **Do not blame the user for agent failures**: If the agent is unresponsive, repeatedly fails, or makes critical errors, the user giving up or ending the conversation is a reasonable reaction — not a user error. Only flag premature_termination when the agent was actively working and making progress.

### User Error Severity:
For each user error, classify its severity:
- **critical_helped**: The user error helped the agent succeed inappropriately (e.g., user provided information they shouldn't have, making the task too easy).
- **critical_hindered**: The user error hindered the agent or made the task harder/impossible (e.g., user provided incorrect information or contradicted instructions).
- **minor**: The user made an error but it did NOT influence the simulation outcome.

### Agent Turn Errors:
For each Agent Turn, check if the Agent:
- Followed the Policy
- Correctly performed its task
- Acted consistently with previous turns

### Agent Error Severity:
For each agent error, classify its severity:
- **critical**: The error directly caused task failure OR violated important security/policy requirements (even if task succeeded).
- **minor**: The error was suboptimal but did NOT affect the final outcome or violate critical policies.

### Error Tags:
For each error, assign one or more tags from the following list:
- **hallucination**: Made up information not grounded in guidelines, instructions, or tool call results. For user errors specifically: provided factual details (e.g., zip codes, sizes, product descriptions) not present in or derivable from the user instructions.
- **incorrect_interpretation**: Misinterpreted available information (e.g., misread a tool result or misunderstood a message).
- **guideline_violation**: Message or action not consistent with the provided guidelines or policy.
- **revealed_info_early**: Shared information before it was appropriate or before proper verification.
- **inconsistent_behavior**: Action or statement contradicts earlier statements or actions in the conversation.
- **tool_call_schema_error**: Made a tool call with invalid tool name, missing arguments, or wrong argument types.
- **tool_call_argument_error**: Made a tool call with correct schema but incorrect argument values.
- **irrelevant_tool_call**: Made a tool call not relevant to the current task or conversation state.
- **premature_termination**: Ended the conversation or accepted an incomplete outcome while the other participant was actively working and making progress. Do NOT use this tag if the user ended the conversation because the agent was unresponsive or repeatedly failing.
- **missed_required_action**: Did not take a required action that was expected.
- **wrong_sequence**: Performed actions out of the expected order or sequence.
- **other**: Use only when no other tag applies. Include a description of the error type in the reasoning.

### Workflow
Follow these steps to produce your analysis:

1. **Fact-check user claims**: Verify every factual claim the user makes against the <User Instructions>.

2. **Analyze each turn**: Go through the conversation turn by turn. For each turn, check if the message contains an error based on the guidelines above. Note any errors you find.

3. **Assess context for termination**: If the user ended the conversation early, only flag premature_termination if the agent was actively making progress (not stalled or failing).

4. **Summarize**: Summarize what happened at the conversation level, including what errors (if any) affected the outcome.

5. **Format output**: Compile your findings into the expected JSON format. Include only the turns where errors were found (discard turns with no errors from the errors list).

# Inputs
- <Policy>: The policy the Agent must follow.
- <Simulation Guidelines>: The guidelines for the User Simulator.
- <User Instructions>: Instructions for the user simulator to follow.
- <Example Action Trajectory>: An example sequence of actions that could complete the task. Note: Other valid approaches may exist, and this example trajectory may include extraneous actions.
- <Natural Language Assertions>: Assertions the Agent must satisfy.
- <Conversation>: The full conversation between the user simulator and the agent.

# Output
Structure your answer in the following JSON format:
\`\`\`json
{{
    "errors": [
        {{
            "source": "user" or "agent" (who performed the action that has the error),
            "error_tags": ["<tag1>", "<tag2>", ...],
            "severity": "minor" or "critical" (for agent) / "minor" or "critical_helped" or "critical_hindered" (for user),
            "turn_idx": <turn number where error occurred>,
            "reasoning": "<explanation of why this is an error>",
            "correct_behavior": "<what should have been done instead>"
        }}
    ],
    "summary": "<brief summary of the review>"
}}
\`\`\`

- "errors": List of errors found. Empty list if no errors.
- "summary": A brief summary of the conversation review highlighting key findings.

Return ONLY the JSON object, no additional text.`;

/** The full review's user prompt; `{name}` marks each value filled in. */
export const FULL_REVIEW_USER_TEMPLATE = `<Policy>
{policy}
</Policy>

<Simulation Guidelines>
{simulation_guidelines}
</Simulation Guidelines>

<User Instructions>
{user_instructions}
</User Instructions>

<Example Action Trajectory>
{example_action_trajectory}
</Example Action Trajectory>

<Natural Language Assertions>
{natural_language_assertions}
</Natural Language Assertions>

<Conversation>
{conversation}
</Conversation>`;

/** The user-only review's system prompt; `{user_guidelines}` is filled in. */
export const USER_REVIEW_SYSTEM_TEMPLATE = `# Goal
Assess this conversation to determine if the user simulator made any errors during the interaction.

Here are the general guidelines given to the user simulator:
<User Simulator Guidelines>
{user_guidelines}
</User Simulator Guidelines>

# Inputs
- <User Instructions>: Instructions for the user simulator to follow during this specific interaction.
- <Conversation>: The full conversation between the user simulator and the agent.

# Instructions
Read the <User Instructions> and <Conversation>.
Review the entire conversation and identify ALL user messages where the user simulator made an error.

A user simulator error occurs when a user message:
- Does not follow the <User Simulator Guidelines> or <User Instructions>.
- Is not a natural or correct continuation of the conversation.
- Provides incorrect information that contradicts the <User Instructions>.
- Reveals information the user should not know according to the instructions.

## Important Review Principles

1. **Fact-check every user claim**: For every factual detail the user provides (names, emails, zip codes, sizes, colors, product descriptions, etc.), verify it appears in or is derivable from the <User Instructions>. Any detail not grounded in the instructions is a hallucination — even if it sounds plausible. When the user lacks information, the correct behavior is to say "I don't know" or ask the agent.

2. **Do not blame the user for agent failures**: If the agent is unresponsive, repeatedly fails, or makes critical errors, the user giving up or ending the conversation is a reasonable reaction — not a user error. Only flag premature_termination when the agent was actively working and making progress.


## Error Severity
For each user error, classify its severity:
- **critical_helped**: The user error helped the agent succeed inappropriately (e.g., user provided information they shouldn't have, making the task too easy).
- **critical_hindered**: The user error hindered the agent or made the task harder/impossible (e.g., user provided incorrect information or contradicted instructions).
- **minor**: The user made an error but it did NOT influence the simulation outcome.

## Error Tags
For each error, assign one or more tags from the following list:
- **hallucination**: Provided factual details (e.g., zip codes, sizes, product descriptions) not present in or derivable from the user instructions — even if plausible.
- **incorrect_interpretation**: Misinterpreted available information (e.g., misunderstood agent's message or response).
- **guideline_violation**: Message not consistent with the User Simulator Guidelines or User Instructions.
- **revealed_info_early**: Shared information before it was appropriate or before proper verification.
- **inconsistent_behavior**: Statement contradicts earlier statements or actions in the conversation.
- **premature_termination**: Ended the conversation or accepted an incomplete outcome while the agent was actively working and making progress. Do NOT use this tag if the user ended the conversation because the agent was unresponsive or repeatedly failing.
- **missed_required_action**: Did not take a required action that was expected.
- **wrong_sequence**: Performed actions out of the expected order or sequence.
- **other**: Use only when no other tag applies. Include a description of the error type in the reasoning.

## Workflow
Follow these steps to produce your analysis:

1. **Fact-check user claims**: Verify every factual claim the user makes against the <User Instructions>.

2. **Analyze each user message**: Go through the conversation message by message. For each user message, check if it contains an error based on the guidelines above. Note any errors you find.

3. **Assess context for termination**: If the user ended the conversation early, only flag premature_termination if the agent was actively making progress (not stalled or failing).

4. **Summarize**: Summarize what happened at the conversation level, including what errors (if any) affected the outcome.

5. **Format output**: Compile your findings into the expected JSON format. Include only the messages where errors were found (discard messages with no errors from the errors list).

# Output
Structure your answer in the following JSON format:
\`\`\`json
{
    "errors": [
        {
            "turn_idx": <turn number where error occurred>,
            "error_tags": ["<tag1>", "<tag2>", ...],
            "severity": "minor" or "critical_helped" or "critical_hindered",
            "reasoning": "<explanation of why this is an error>",
            "user_message": "<the problematic user message content>",
            "correct_behavior": "<what the user should have said or done instead>"
        }
    ],
    "summary": "<brief summary of the review>"
}
\`\`\`

- "errors": List of errors found. Empty list if no errors.
- "summary": A brief summary of the conversation review highlighting key findings.

Return ONLY the JSON object, no additional text.`;

/** The user-only review's user prompt. */
export const USER_REVIEW_USER_TEMPLATE = `<User Instructions>
{user_instructions}
</User Instructions>

<Conversation>
{conversation}
</Conversation>`;

/** The authentication classifier's system prompt. */
export const AUTH_SYSTEM_PROMPT = `# Goal
Classify the user authentication outcome in this customer service conversation.

## Background
In customer service interactions, agents often need to authenticate users before taking actions on their accounts.
Authentication typically involves verifying the user's identity through:
- Email address lookup
- Name + zip code verification
- Other identity verification methods

## Classification Options

You must classify the authentication outcome as one of:

1. **succeeded**: The agent successfully authenticated/identified the user
   - The agent verified the user's identity through email, name+zip, or other means
   - The agent was able to look up and confirm the user's account
   - The conversation proceeded with the agent having access to user information

2. **failed**: The agent attempted but failed to authenticate the user
   - The agent tried to verify identity but couldn't find a matching account
   - Authentication failed due to mismatched information
   - The user couldn't be identified despite attempts

3. **not_needed**: The task did not require user authentication
   - The conversation was about general information
   - No account-specific actions were needed
   - The task could be completed without knowing who the user is

## Instructions
1. Review the conversation carefully
2. Look for authentication attempts (email lookup, name+zip verification, etc.)
3. Determine the outcome of any authentication attempts
4. If initial authentication failed, but in later attempts the agent was able to authenticate the user, then classify as "succeeded"
5. If no authentication was attempted or needed, classify as "not_needed"

## Output Format
Return ONLY a JSON object:
\`\`\`json
{
    "status": "succeeded" or "failed" or "not_needed",
    "reasoning": "Brief explanation of why this classification was chosen"
}
\`\`\``;

/** The authentication classifier's user prompt. */
export const AUTH_USER_TEMPLATE = `<Conversation>
{conversation}
</Conversation>`;
