"""IBM's REST error body, pure: ``{"error": [{"type": "rest", "msgId": "MQWB...", "message": ...,
"explanation": ..., "action": ..., "completionCode": ..., "reasonCode": ...}]}``.

``RestError`` is what a handler raises (``refuse(situation, ...)`` builds one from ``SITUATIONS``);
``app`` turns it into the response. The ids and texts are IBM's (IBM MQ 9.x "REST API messages"
MQWB00xx/01xx/03xx and "IBM MQ Console messages" MQWB2xxx, and IBM's "REST API error handling"
examples); where IBM has no message for a situation of mqlite's, or the one IBM uses could not be
found, the closest IBM message is used and ``SITUATIONS`` says so. An MQ failure keeps its reason
code (``from_reason``); the HTTP status follows IBM's mqweb: 2035 is 403, an unknown object 404, a
queue manager that is not running 503, anything else the MQI refused 400. The key is ``msgId``, as
IBM's servers send it (the field list of IBM's documentation says messageId).
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

# mqlite's word on a 401 for credentials that were sent but are not a user's (the explanation's end)
WRONG_PASSWORD = "The user name and password sent are not those of a user of the queue manager"

_PCF_REASONS = {3008: "MQRCCF_COMMAND_FAILED", 4001: "MQRCCF_OBJECT_ALREADY_EXISTS"}

# msgId -> (message, explanation, action): IBM's texts, <insert_n> as {n}. IBM's servers quote
# names ('QM1'), so the templates do where IBM's own examples show it. Where IBM's explanation or
# action could not be read in full, the end is ours (marked "ours").
MESSAGES: dict[str, tuple[str, str, str]] = {
    "MQWB0000E": ("An unexpected exception {0} occurred.",
                  "An exception was thrown which is not otherwise handled.",
                  "Use the message from the exception to resolve the problem if possible. If necessary, "
                  "seek assistance from IBM support."),
    "MQWB0004E": ("An internal error occurred while communicating with the queue manager. The root MQ "
                  "reason code was {0} : {1}.",
                  "The REST API caught an exception when communicating with the queue manager. This might "
                  "indicate that there was a problem with the queue manager, or that a parameter that was "
                  "passed was incorrect.",
                  # IBM's begins so; the rest is ours (no Java exception field here)
                  "Rectify the problem, which might require operations to be performed on the queue "
                  "manager, and resubmit the request."),
    "MQWB0009E": ("Could not query the queue manager '{0}'.",
                  "The MQ REST API was invoked specifying a queue manager name which cannot be located.",
                  "Resubmit the request with a valid queue manager name or no queue manager name, to "
                  "retrieve a list of queue managers."),
    "MQWB0037E": ("Could not find the queue '{0}' - the queue manager reason code is {1} : '{2}'",
                  "The MQ REST API was invoked specifying a queue name which cannot be located.",
                  "Resubmit the request with the name of an existing queue, or with no queue name to "
                  "retrieve a list of queues."),
    "MQWB0100E": ("The CSRF header '{0}' was omitted from the request.",
                  "The REST API request cannot be completed because the CSRF header was omitted.",
                  "Resubmit the request with the correct CSRF header."),
    # IBM's variants: "Not authorized." and "Not authorized to <verb> <insert_0>."
    "MQWB0103E": ("Not authorized to {0} '{1}'.",
                  "The authenticated principal is not authorized to perform the requested REST API "
                  "operation.",
                  "Obtain the necessary authorization to perform the operation and resubmit the request."),
    "MQWB0104E": ("The REST API request is not authenticated.",
                  "The REST API request cannot be completed because credentials were omitted from the "
                  "request.",
                  # ours: IBM's response was not found
                  "Resubmit the request with valid credentials: HTTP basic authentication, or the token "
                  "cookie of a login (POST /ibmmq/rest/v2/login)."),
    "MQWB0112E": ("The '{0}' authentication token cookie failed verification.",
                  "The REST API request cannot be completed because the authentication token failed "
                  "verification.",
                  "Login to the REST API to obtain a valid authentication cookie."),
    "MQWB0302E": ("The {0} request header cannot be set as {1} is not a valid request header value.",
                  "The API request cannot be completed because an invalid value was specified for a "
                  "request header.",
                  "Resubmit the request using a valid header value."),
    "MQWB0305E": ("The character set {0} is not acceptable for the request.",
                  "The request is encoded using an unacceptable character set.",
                  "Resubmit the request, correcting any issues."),
    "MQWB0306E": ("The media type is unsupported for this type of request.",
                  "The request attempted to use an unsupported media type.",
                  "Resubmit the request, correcting any issues."),  # IBM's: "Resubmit..." (end not read)
    # The id and its 501 are those IBM's mqweb answers a message that is not text with (seen by a
    # client written against it); IBM's text was not found, this one is ours.
    "MQWB0309E": ("The message is not a text message, so it cannot be returned.",
                  "The messaging REST API returns messages of format MQSTR only; the message is left on "
                  "the queue.",
                  "Get the message with an MQI or JMS application."),
    "MQWB2004E": ("The body of the request could not be parsed.",
                  "The body of the HTTP request could not be parsed, possibly due to bad formatting of the "
                  "data.",
                  "Ensure the request contains valid data that matches the data format expected for the "
                  "specified HTTP resource, HTTP method, and HTTP content type."),
    "MQWB2005E": ("The {0} HTTP method is not allowed for the {1} resource request.",
                  "A recognized resource request has been made, but it does not support the specified "
                  "method.",
                  "Update the request to specify a different resource or specify a supported method."),
}
_PLAIN = {"MQWB0103E": "Not authorized."}  # the variant without inserts

# situation -> (HTTP status, IBM's msgId). Sources: ibm.com/docs IBM MQ 9.x REST API messages
# (mqwb00.html, mqwb01.html, mqwb03.html), IBM MQ Console messages (MQWB2xxx), REST API error
# handling (q128280_), and each resource's "Response status codes".
SITUATIONS: dict[str, tuple[int, str]] = {
    "unexpected": (500, "MQWB0000E"),
    # closest: IBM's REST API has no message of its own for an unknown URL (its web server answers)
    "unknown_resource": (404, "MQWB0000E"),
    # MQWB2005E and MQWB2004E are IBM's mqweb messages of its Console (MQWB2xxx); the REST API's own
    # ids for these situations could not be found
    "method_not_allowed": (405, "MQWB2005E"),
    "bad_body": (400, "MQWB2004E"),
    "body_too_large": (413, "MQWB2004E"),  # closest: IBM's message for maxRequestBodySize not found
    # closest: IBM's REST API id for an invalid query parameter (or object name) was not found;
    # MQWB0302E is its message for an invalid request value, named as a header
    "bad_query": (400, "MQWB0302E"),
    "bad_header": (400, "MQWB0302E"),
    "unsupported_media": (415, "MQWB0306E"),
    "bad_charset": (415, "MQWB0305E"),
    "body_not_charset": (400, "MQWB0305E"),
    "not_text_message": (501, "MQWB0309E"),
    "csrf_missing": (403, "MQWB0100E"),
    "not_authenticated": (401, "MQWB0104E"),  # also a wrong password or login (IBM's for those not found)
    "token_failed": (401, "MQWB0112E"),
    "not_authorized": (403, "MQWB0103E"),
    "qmgr_unknown": (404, "MQWB0009E"),
    # closest: IBM answers an MQ failure it has no message for with MQWB0004E and the reason
    "qmgr_not_running": (503, "MQWB0004E"),
    "queue_unknown": (404, "MQWB0037E"),
    "object_unknown": (404, "MQWB0004E"),  # closest: IBM's ids for a channel, topic, ... not found
    "mq_failed": (400, "MQWB0004E"),
}


@dataclass
class RestError(Exception):
    """A failed request: HTTP ``status``, IBM's ``msg_id`` and its inserts, MQ codes when known;
    ``detail`` is mqlite's own word on the cause, added to the explanation."""

    status: int
    msg_id: str
    inserts: tuple[object, ...] = ()
    reason: int | None = None
    completion: int | None = None
    detail: str = ""

    def body(self) -> dict[str, Any]:
        return error_body(self.msg_id, self.inserts, self.reason, self.completion, self.detail)


def refuse(situation: str, *inserts: object, reason: int | None = None, detail: str = "") -> RestError:
    """The RestError of one of ``SITUATIONS``."""
    status, msg_id = SITUATIONS[situation]
    return RestError(status, msg_id, inserts, reason, detail=detail)


def error_body(msg_id: str, inserts: tuple[object, ...] = (), reason: int | None = None,
               completion: int | None = None, detail: str = "") -> dict[str, Any]:
    """IBM's error body for one message."""
    text, explanation, action = MESSAGES[msg_id]
    if not inserts and msg_id in _PLAIN:
        text = _PLAIN[msg_id]
    message = text.format(*(str(i).rstrip(".") for i in inserts), *([""] * 3))
    item: dict[str, Any] = {
        "type": "rest",
        "msgId": msg_id,
        "message": f"{msg_id}: {message}",
        "explanation": f"{explanation} {detail.rstrip('.')}." if detail else explanation,
        "action": action,
    }
    if reason is not None:
        item["completionCode"] = MQCC_FAILED if completion is None else completion
        item["reasonCode"] = reason
        item["reasonName"] = name_of_reason(reason)
    else:  # IBM's servers send both, 0, when no MQ call failed (their MQWB0112E, MQWB0400E bodies)
        item["completionCode"] = 0
        item["reasonCode"] = 0
    return {"error": [item]}


def name_of_reason(reason: int) -> str:
    return _PCF_REASONS.get(reason) or reason_name(reason)


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
    """The RestError of an MQI failure on ``qmgr`` (``user`` is kept for the callers' logs)."""
    status = status_for_reason(reason)
    if status == 403:
        return refuse("not_authorized", reason=reason)  # IBM's "Not authorized.": no verb known here
    if status == 503:
        return refuse("qmgr_not_running", reason, name_of_reason(reason), reason=reason,
                      detail=f"Queue manager '{qmgr}' is not running")
    error = refuse("mq_failed", reason, name_of_reason(reason), reason=reason)
    error.status = status
    return error


def refused_command(reason: int, qmgr: str, name: str, command: str, first_error: str,
                    not_found: bool = False) -> RestError:
    """The RestError of an MQSC command (``command``, on object ``name``) the queue manager
    refused with ``reason``: 403 with the verb, 404 for an object that does not exist
    (``not_found``, or reason 2085), else 400."""
    if reason == MQRC_NOT_AUTHORIZED:
        return refuse("not_authorized", _VERBS.get(command.split()[0].upper(), "display"), name,
                      reason=reason)
    if not_found or reason == MQRC_UNKNOWN_OBJECT_NAME:
        if _is_queue_command(command):
            return refuse("queue_unknown", name, reason, name_of_reason(reason), reason=reason)
        return refuse("object_unknown", reason, name_of_reason(reason), reason=reason,
                      detail=f"{first_error} (queue manager '{qmgr}')")
    return refuse("mq_failed", reason, name_of_reason(reason), reason=reason,
                  detail=f"{first_error} (queue manager '{qmgr}')")


# MQSC verbs -> IBM's MQWB0103E verbs
_VERBS = {"DEFINE": "create", "ALTER": "alter", "DELETE": "delete", "DISPLAY": "display", "CLEAR": "clear",
          "PING": "ping", "START": "start", "STOP": "stop", "RESET": "reset", "RESOLVE": "resolve",
          "REFRESH": "refresh", "PURGE": "purge", "SET": "set", "SUSPEND": "suspend", "RESUME": "resume"}


def _is_queue_command(command: str) -> bool:
    words = command.split()
    if len(words) < 2:
        return False
    keyword = words[1].split("(")[0].upper()
    return keyword in ("QUEUE", "QLOCAL", "QALIAS", "QREMOTE", "QMODEL", "QL", "QA", "QR", "QM", "QSTATUS",
                       "QUEUES", "Q")
