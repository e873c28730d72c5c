"""The reference gym's observation string (tau2.gym AgentGymEnv._format_observation) from chat-completions
messages: ``role: content`` per message, tool calls in functional form, and only what follows the agent's
last message."""

from __future__ import annotations

import json
from typing import Any, List, Mapping, Sequence


def functional_format(call: Mapping[str, Any]) -> str:
    """A tool call as ``name(a='x', n=1)``, arguments sorted by name (tau2.utils.tools.to_functional_format)."""
    function = call["function"]
    arguments = json.loads(function["arguments"] or "{}")
    pairs: List[str] = []
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


def format_observation(messages: Sequence[Mapping[str, Any]]) -> str:
    turns: List[str] = []
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
