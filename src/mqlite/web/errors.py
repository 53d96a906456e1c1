"""IBM's REST error body, pure: ``{"error": [{"type": "rest", "msgId": "MQWB...", "message": ...,
"explanation": ..., "action": ..., "completionCode": ..., "reasonCode": ...}]}``.

``RestError`` is what a handler raises; ``app`` turns it into the response. An MQ failure keeps
its reason code (``from_reason``); the HTTP status follows IBM's mqweb: 2035 is 403, an unknown
object 404, a queue manager that is not running 503, anything else the MQI refused 400.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqlite.reasons import reason_name

MQCC_FAILED = 2
MQRC_NOT_AUTHORIZED = 2035
MQRC_UNKNOWN_OBJECT_NAME = 2085
MQRC_Q_MGR_NAME_ERROR = 2058
MQRC_Q_MGR_NOT_AVAILABLE = 2059
MQRC_NO_MSG_AVAILABLE = 2033

_PCF_REASONS = {3008: "MQRCCF_COMMAND_FAILED", 4001: "MQRCCF_OBJECT_ALREADY_EXISTS"}

# (msgId, message, explanation, action) of the REST API messages mqlite answers with; IBM's ids.
MESSAGES: dict[str, tuple[str, str, str]] = {
    "MQWB0000E": ("An unexpected exception occurred: {0}.",
                  "An exception was thrown which is not otherwise handled.",
                  "Use the message to resolve the problem if possible."),
    "MQWB0009E": ("Could not query the queue manager '{0}'.",
                  "The REST API could not reach the queue manager, or it refused the request.",
                  "Look at the reason code, correct the problem and resubmit the request."),
    "MQWB0010E": ("The queue manager '{0}' does not exist or is not running.",
                  "The queue manager named in the resource URL is not known to this installation, "
                  "or it is not running.",
                  "Start the queue manager, or correct its name in the URL."),
    "MQWB0011E": ("The object '{0}' was not found on queue manager '{1}'.",
                  "The object named in the resource URL does not exist.",
                  "Correct the name in the URL and resubmit the request."),
    "MQWB0013E": ("The command failed on queue manager '{0}': {1}.",
                  "The queue manager answered the request with a failure.",
                  "Look at the reason code, correct the problem and resubmit the request."),
    "MQWB0100E": ("The request body is not valid: {0}.",
                  "The body of the HTTP request could not be parsed, or it does not have the form the "
                  "resource expects.",
                  "Send a body of the expected form (JSON for the administrative REST API)."),
    "MQWB0101E": ("The query parameter '{0}' is not valid: {1}.",
                  "A query parameter of the URL has a value the resource does not accept.",
                  "Correct the query parameter and resubmit the request."),
    "MQWB0104E": ("The resource '{0}' was not found.",
                  "No REST API resource has this URL.",
                  "Correct the URL and resubmit the request."),
    "MQWB0105E": ("The {0} method is not allowed for the resource '{1}'.",
                  "A recognized resource was requested with a method it does not support.",
                  "Use one of the methods the resource supports."),
    "MQWB0106E": ("The request body is larger than the limit of {0} bytes.",
                  "The web server refuses request bodies above its maxRequestBodySize.",
                  "Send a smaller body, or raise the limit with setmqweb properties -k maxRequestBodySize."),
    "MQWB0107E": ("A valid CSRF token is required: the header 'ibm-mq-rest-csrf-token' is missing.",
                  "Every POST, PUT, PATCH and DELETE request must carry the ibm-mq-rest-csrf-token "
                  "header (any value) to protect against cross-site request forgery.",
                  "Add the header ibm-mq-rest-csrf-token to the request."),
    "MQWB0112E": ("The user '{0}' is not authorized for this request.",
                  "The queue manager refused the request with MQRC_NOT_AUTHORIZED: the user lacks the "
                  "authority it needs (see setmqaut).",
                  "Grant the user the authority, or make the request as another user."),
    "MQWB0117E": ("Authentication failed: a valid user name and password are required.",
                  "The request has no credentials, or the user name and password are not those of a user "
                  "in the users file of a queue manager of this installation.",
                  "Log in (POST /ibmmq/rest/v1/login) or send HTTP basic authentication."),
    "MQWB0306E": ("The media type '{0}' is unsupported for this type of request.",
                  "The request attempted to use an unsupported media type.",
                  "Send the request body as the media type the resource expects."),
    "MQWB0302E": ("The {0} request header cannot be set as {1} is not a valid request header value.",
                  "An invalid value was specified for a request header.",
                  "Resubmit the request using a valid header value."),
}


@dataclass
class RestError(Exception):
    """A failed request: HTTP ``status``, IBM's ``msg_id`` and its inserts, MQ codes when known."""

    status: int
    msg_id: str
    inserts: tuple[object, ...] = ()
    reason: int | None = None
    completion: int | None = None

    def body(self) -> dict[str, Any]:
        return error_body(self.msg_id, self.inserts, self.reason, self.completion)


def error_body(msg_id: str, inserts: tuple[object, ...] = (), reason: int | None = None,
               completion: int | None = None) -> dict[str, Any]:
    """IBM's error body for one message."""
    text, explanation, action = MESSAGES[msg_id]
    item: dict[str, Any] = {
        "type": "rest",
        "msgId": msg_id,
        "message": f"{msg_id}: " + text.format(*(str(i).rstrip(".") for i in inserts), *([""] * 3)),
        "explanation": explanation,
        "action": action,
    }
    if reason is not None:
        item["completionCode"] = MQCC_FAILED if completion is None else completion
        item["reasonCode"] = reason
        item["reasonName"] = _PCF_REASONS.get(reason) or reason_name(reason)
    return {"error": [item]}


def status_for_reason(reason: int) -> int:
    """The HTTP status of an MQ reason, as IBM's mqweb gives them."""
    if reason == MQRC_NOT_AUTHORIZED:
        return 403
    if reason == MQRC_UNKNOWN_OBJECT_NAME:
        return 404
    if reason in (MQRC_Q_MGR_NAME_ERROR, MQRC_Q_MGR_NOT_AVAILABLE, 2009, 2162):
        return 503
    return 400


def from_reason(reason: int, qmgr: str, user: str = "") -> RestError:
    """The RestError of an MQI failure on ``qmgr``."""
    status = status_for_reason(reason)
    if status == 403:
        return RestError(403, "MQWB0112E", (user,), reason)
    if status == 503:
        return RestError(503, "MQWB0010E", (qmgr,), reason)
    return RestError(status, "MQWB0009E", (qmgr,), reason)
