"""tau2-edge for RL: τ²-bench episodes over OpenEnv WebSocket sessions, as Gymnasium-style environments.

Standard library and ``websockets`` only. ``from tau2_edge import AgentGymEnv`` stands in for
``from tau2.gym import AgentGymEnv``."""

from .env import AgentGymEnv, AsyncTau2EdgeEnv, Tau2EdgeEnv
from .observation import format_observation
from .rollouts import rollout, rollouts
from .session import OpenEnvError, Session

__all__ = ["AgentGymEnv", "AsyncTau2EdgeEnv", "OpenEnvError", "Session", "Tau2EdgeEnv", "format_observation", "rollout", "rollouts"]
