"""tau2-edge for RL: τ²-bench episodes over OpenEnv WebSocket sessions, as Gymnasium environments.

Needs ``websockets``; with ``gymnasium`` installed (the ``gymnasium`` extra) ``Tau2EdgeEnv`` is a
``gymnasium.Env``, ``Tau2EdgeVectorEnv`` a ``gymnasium.vector.VectorEnv``, and both are registered as
``tau2_edge/Tau2Edge-v0``. ``from tau2_edge import AgentGymEnv`` stands in for ``from tau2.gym import AgentGymEnv``."""

from .env import AsyncTau2EdgeEnv
from .errors import (
    AuthenticationError,
    CapacityReachedError,
    ExecutionError,
    FactoryError,
    HandshakeError,
    OpenEnvError,
    ProtocolError,
    ServerUnreachableError,
    SessionError,
    Tau2EdgeError,
    ValidationError,
)
from .forks import fork_group
from .observation import format_observation
from .rollouts import play_rollouts, rollout, rollouts
from .session import Session
from .sync_env import HAS_GYMNASIUM, AgentGymEnv, Tau2EdgeEnv

__version__ = "0.1.0"

__all__ = [
    "AgentGymEnv",
    "AsyncTau2EdgeEnv",
    "AuthenticationError",
    "CapacityReachedError",
    "ExecutionError",
    "FactoryError",
    "HandshakeError",
    "OpenEnvError",
    "ProtocolError",
    "ServerUnreachableError",
    "Session",
    "SessionError",
    "Tau2EdgeEnv",
    "Tau2EdgeError",
    "ValidationError",
    "fork_group",
    "format_observation",
    "play_rollouts",
    "rollout",
    "rollouts",
]

if HAS_GYMNASIUM:
    import gymnasium

    from .vector import Tau2EdgeVectorEnv

    __all__ += ["Tau2EdgeVectorEnv"]
    # An LLM plays the user, so the same seed need not give the same conversation: nondeterministic.
    gymnasium.register(
        id="tau2_edge/Tau2Edge-v0",
        entry_point="tau2_edge.sync_env:Tau2EdgeEnv",
        vector_entry_point="tau2_edge.vector:Tau2EdgeVectorEnv",
        nondeterministic=True,
    )
