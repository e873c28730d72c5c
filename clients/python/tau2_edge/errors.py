"""What can go wrong, as exceptions a caller can act on: the server unreachable, the key refused, and OpenEnv's
error codes (an ``error`` message's ``code``), one exception each."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type


class Tau2EdgeError(Exception):
    """Any failure of the client; ``server`` is the Worker's URL."""

    def __init__(self, message: str, server: Optional[str] = None) -> None:
        super().__init__(message)
        self.server = server


class ServerUnreachableError(Tau2EdgeError, ConnectionError):
    """No connection to the server (wrong URL, server down)."""


class HandshakeError(Tau2EdgeError):
    """The server answered the session's opening with an HTTP error; ``status`` is its code."""

    def __init__(self, message: str, server: Optional[str] = None, status: Optional[int] = None) -> None:
        super().__init__(message, server)
        self.status = status


class AuthenticationError(HandshakeError):
    """The server refused the API key (HTTP 401 or 403)."""


class OpenEnvError(Tau2EdgeError):
    """An ``error`` message of the session: ``code`` is OpenEnv's error code, ``data`` the whole error
    (``message``, ``code``, and ``status``, ``reason``, ``errors`` where the server gives them)."""

    def __init__(self, data: Mapping[str, Any], server: Optional[str] = None) -> None:
        super().__init__(f"{data.get('message')} (code: {data.get('code')})", server)
        self.code: Optional[str] = data.get("code")
        self.data: Dict[str, Any] = dict(data)

    @staticmethod
    def of(data: Mapping[str, Any], server: Optional[str] = None) -> "OpenEnvError":
        """The exception of an error message's code (``OpenEnvError`` itself for a code it does not know)."""
        return _BY_CODE.get(str(data.get("code")), OpenEnvError)(data, server)


class ProtocolError(OpenEnvError):
    """INVALID_JSON, UNKNOWN_TYPE: the client sent what the protocol does not have (a client bug)."""


class ValidationError(OpenEnvError):
    """VALIDATION_ERROR: bad reset or step data; ``data["errors"]`` names each field."""


class ExecutionError(OpenEnvError):
    """EXECUTION_ERROR: a step refused; ``data["status"]`` and ``data["reason"]`` say why (409 conflict, 503 not_ready)."""


class CapacityReachedError(OpenEnvError):
    """CAPACITY_REACHED: over a tenant quota (429); wait, or play fewer episodes at once."""


class FactoryError(OpenEnvError):
    """FACTORY_ERROR: a reset that yields no episode (an unknown episode_id, cancelled, not started in time)."""


class SessionError(OpenEnvError):
    """SESSION_ERROR: the session's API key was revoked, or the server answered out of turn; open a new session."""


_BY_CODE: Dict[str, Type[OpenEnvError]] = {
    "INVALID_JSON": ProtocolError,
    "UNKNOWN_TYPE": ProtocolError,
    "VALIDATION_ERROR": ValidationError,
    "EXECUTION_ERROR": ExecutionError,
    "CAPACITY_REACHED": CapacityReachedError,
    "FACTORY_ERROR": FactoryError,
    "SESSION_ERROR": SessionError,
}


def refusal(server: str, status: int, reason: str = "") -> HandshakeError:
    """The exception of an HTTP error answer; ``reason`` is the server's own words, when it gave any."""
    detail = f": {reason}" if reason else ""
    if status in (401, 403):
        return AuthenticationError(f"{server} refused the API key (HTTP {status}{detail}); check the key given as api_key or TAU2_EDGE_API_KEY", server, status)
    return HandshakeError(f"{server} answered HTTP {status}{detail}", server, status)
