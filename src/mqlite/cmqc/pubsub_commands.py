
from typing import Final

# Queued publish/subscribe command messages (cmqpsc.h): the MQRFH2 folders and the words of the
# psc and pscr folders (spec D sections 2.6 and 3.1). All are strings, as they appear in the folders.

# MQRFH2 folder names
MQRFH2_PUBSUB_CMD_FOLDER: Final = "psc"
MQRFH2_PUBSUB_RESP_FOLDER: Final = "pscr"
MQRFH2_MSG_CONTENT_FOLDER: Final = "mcd"
MQRFH2_USER_FOLDER: Final = "usr"
MQRFH2_PUBSUB_CMD_FOLDER_B: Final = "<psc>"
MQRFH2_PUBSUB_CMD_FOLDER_E: Final = "</psc>"
MQRFH2_PUBSUB_RESP_FOLDER_B: Final = "<pscr>"
MQRFH2_PUBSUB_RESP_FOLDER_E: Final = "</pscr>"
MQRFH2_MSG_CONTENT_FOLDER_B: Final = "<mcd>"
MQRFH2_MSG_CONTENT_FOLDER_E: Final = "</mcd>"
MQRFH2_USER_FOLDER_B: Final = "<usr>"
MQRFH2_USER_FOLDER_E: Final = "</usr>"

# Tag names of the psc folder
MQPSC_COMMAND: Final = "Command"
MQPSC_CORREL_ID: Final = "CorrelId"
MQPSC_DELETE_OPTION: Final = "DelOpt"
MQPSC_FILTER: Final = "Filter"
MQPSC_PUBLICATION_OPTION: Final = "PubOpt"
MQPSC_PUBLISH_TIMESTAMP: Final = "PubTime"
MQPSC_Q_MGR_NAME: Final = "QMgrName"
MQPSC_Q_NAME: Final = "QName"
MQPSC_REGISTRATION_OPTION: Final = "RegOpt"
MQPSC_SEQUENCE_NUMBER: Final = "SeqNum"
MQPSC_SUBSCRIPTION_IDENTITY: Final = "SubIdentity"
MQPSC_SUBSCRIPTION_NAME: Final = "SubName"
MQPSC_SUBSCRIPTION_POINT: Final = "SubPoint"
MQPSC_SUBSCRIPTION_USER_DATA: Final = "SubUserData"
MQPSC_TOPIC: Final = "Topic"

# Values of the Command tag
MQPSC_DELETE_PUBLICATION: Final = "DeletePub"
MQPSC_DEREGISTER_SUBSCRIBER: Final = "DeregSub"
MQPSC_PUBLISH: Final = "Publish"
MQPSC_REGISTER_SUBSCRIBER: Final = "RegSub"
MQPSC_REQUEST_UPDATE: Final = "ReqUpdate"

# Values of the RegOpt, PubOpt and DelOpt tags
MQPSC_ADD_NAME: Final = "AddName"
MQPSC_CORREL_ID_AS_IDENTITY: Final = "CorrelAsId"
MQPSC_DEREGISTER_ALL: Final = "DeregAll"
MQPSC_DUPLICATES_OK: Final = "DupsOK"
MQPSC_FULL_RESPONSE: Final = "FullResp"
MQPSC_INFORM_IF_RETAINED: Final = "InformIfRet"
MQPSC_IS_RETAINED_PUB: Final = "IsRetainedPub"
MQPSC_JOIN_EXCLUSIVE: Final = "JoinExcl"
MQPSC_JOIN_SHARED: Final = "JoinShared"
MQPSC_LEAVE_ONLY: Final = "LeaveOnly"
MQPSC_LOCAL: Final = "Local"
MQPSC_LOCKED: Final = "Locked"
MQPSC_NEW_PUBS_ONLY: Final = "NewPubsOnly"
MQPSC_NO_ALTERATION: Final = "NoAlter"
MQPSC_NON_PERSISTENT: Final = "NonPers"
MQPSC_NO_REG_OPTIONS: Final = "None"
MQPSC_OTHER_SUBS_ONLY: Final = "OtherSubsOnly"
MQPSC_PERSISTENT: Final = "Pers"
MQPSC_PERSISTENT_AS_PUBLISH: Final = "PersAsPub"
MQPSC_PERSISTENT_AS_Q: Final = "PersAsQueue"
MQPSC_PUB_ON_REQUEST_ONLY: Final = "PubOnReqOnly"
MQPSC_RETAIN_PUB: Final = "RetainPub"
MQPSC_VARIABLE_USER_ID: Final = "VariableUserId"

# Tag names and values of the pscr folder
MQPSCR_COMPLETION: Final = "Completion"
MQPSCR_RESPONSE: Final = "Response"
MQPSCR_REASON: Final = "Reason"
MQPSCR_OK: Final = "ok"
MQPSCR_WARNING: Final = "warning"
MQPSCR_ERROR: Final = "error"
