"""The reference gym's observation string (tau2.gym AgentGymEnv._format_observation) from chat-completions
messages: ``role: content`` per message, tool calls in functional form, and only what follows the agent's
last message."""

import json


def functional_format(call):
    """A tool call as ``name(a='x', n=1)``, arguments sorted by name (tau2.utils.tools.to_functional_format)."""
    function = call["function"]
    arguments = json.loads(function["arguments"] or "{}")
    pairs = []
    for key in sorted(arguments):
        value = arguments[key]
        if isinstance(value, str):
            escaped = value.replace("'", "\\'")
            pairs.append(f"{key}='{escaped}'")
        elif isinstance(value, (int, float, bool)) or value is None:
            pairs.append(f"{key}={value}")
        else:
            pairs.append(f"{key}={value!r}")
    return f"{function['name']}({', '.join(pairs)})"


def format_observation(messages):
    turns = []
    for message in messages:
        role = message["role"]
        calls = message.get("tool_calls")
        if role in ("user", "assistant"):
            turns.append(f"{role}: {', '.join(functional_format(c) for c in calls) if calls else message.get('content')}")
            if role == "assistant":
                # The agent's own turn starts the observation afresh: it sees what answered it.
                turns = []
        else:
            turns.append(f"{role}: {message.get('content')}")
    return "\n".join(turns)
