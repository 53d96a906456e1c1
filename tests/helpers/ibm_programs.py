"""pymqi programs as they are written for IBM MQ's developer container, kept as their files' text.

Each is what a developer following IBM's material would have on disk: ``import pymqi``, user
``app`` on DEV.APP.SVRCONN, DEV.QUEUE.1 and the ``dev/`` topic, settings from the environment
with the container's defaults (``QMGR`` QM1, ``HOST``, ``PORT`` 1414, ``APP_PASSWORD``), as
IBM's mq-dev-patterns samples read theirs. The tests write a text to a file and run that file
with ``python -m mqlite.pymqi_run``, never editing it (they are strings here, not modules, so
that nothing, not even a linter's fix, touches them).

- ``PUT_GET``: the IBM Developer "put and get" tutorial and pymqi's documented examples:
  ``pymqi.connect(queue_manager, channel, conn_info, user, password)``, ``Queue.put``,
  ``Queue.get`` with an MD and a waiting GMO.
- ``DEV_PATTERNS``: mq-dev-patterns' basicput/basicget/basicpublish/basicsubscribe in one
  program: ``QueueManager(None)`` + ``connect_with_options`` with an MQCD (``CMQXC``), an SCO
  and an MQCSP, an OD, MQFMT_STRING, a get loop that ends on 2033, a durable managed
  subscription made with ``SD.set_vs``, a publication on ``dev/``.
- ``IBMMQ_PUT1``: the same for ``ibmmq``, the name IBM now publishes pymqi under (its examples:
  ``import ibmmq as mq``, ``mq.connect``, ``put1``).
- ``REQUEST_REPLY``: mq-dev-patterns' basicrequest/basicresponse: a reply queue made from
  DEV.APP.MODEL.QUEUE (its name read back from the OD), a request on DEV.QUEUE.2, the answer
  put with MQPUT1 to the request's ReplyToQ, matched by CorrelId.
"""

from __future__ import annotations

PUT_GET = """\
# Put a message on DEV.QUEUE.1 and get it back, as the tutorial does with the MQ developer
# container: user app on channel DEV.APP.SVRCONN.
import os
import sys

import pymqi

queue_manager = os.environ.get('QMGR', 'QM1')
channel = 'DEV.APP.SVRCONN'
host = os.environ.get('HOST', '127.0.0.1')
port = os.environ.get('PORT', '1414')
queue_name = 'DEV.QUEUE.1'
message = 'Hello from Python!'
conn_info = '%s(%s)' % (host, port)
user = os.environ.get('APP_USER', 'app')
password = os.environ.get('APP_PASSWORD', 'passw0rd')

try:
    qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)
except pymqi.MQMIError as e:
    print('Connection failed: %s' % e)
    sys.exit(1)

queue = pymqi.Queue(qmgr, queue_name)
queue.put(message)
print('Put: %s' % message)

md = pymqi.MD()
gmo = pymqi.GMO()
gmo.Options = pymqi.CMQC.MQGMO_WAIT | pymqi.CMQC.MQGMO_FAIL_IF_QUIESCING
gmo.WaitInterval = 5000
received = queue.get(None, md, gmo)
print('Got: %s' % received.decode())

queue.close()
qmgr.disconnect()
"""

IBMMQ_PUT1 = """\
# Put a message with MQPUT1 and get it back, as IBM's ibmmq examples do against the developer
# container.
import os

import ibmmq as mq

queue_manager = os.getenv('QMGR', 'QM1')
channel = 'DEV.APP.SVRCONN'
conn_info = '%s(%s)' % (os.getenv('HOST', '127.0.0.1'), os.getenv('PORT', '1414'))
user = 'app'
password = os.getenv('APP_PASSWORD', 'password')
queue_name = 'DEV.QUEUE.1'
message = 'Hello from Python!'

qmgr = mq.connect(queue_manager, channel, conn_info, user, password)
qmgr.put1(queue_name, message)
queue = mq.Queue(qmgr, queue_name)
print(queue.get(None, mq.MD(), mq.GMO(Options=mq.CMQC.MQGMO_WAIT, WaitInterval=5000)).decode())
queue.close()
qmgr.disconnect()
print("Done.")
"""

DEV_PATTERNS = """\
# Put, get, publish and subscribe in the style of IBM's mq-dev-patterns samples.
import json
import logging
import os

import pymqi

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger(__name__)

MQDetails = {
    'QMGR': os.getenv('QMGR', 'QM1'),
    'HOST': os.getenv('HOST', 'localhost'),
    'PORT': os.getenv('PORT', '1414'),
    'CHANNEL': os.getenv('CHANNEL', 'DEV.APP.SVRCONN'),
    'QUEUE_NAME': os.getenv('QUEUE_NAME', 'DEV.QUEUE.1'),
    'TOPIC_NAME': os.getenv('TOPIC_NAME', 'dev/'),
}
credentials = {
    'USER': os.getenv('APP_USER', 'app'),
    'PASSWORD': os.getenv('APP_PASSWORD', 'passw0rd'),
}


def connect():
    logger.info('Establishing Connection with MQ Server')
    conn_info = '%s(%s)' % (MQDetails['HOST'], MQDetails['PORT'])
    cd = pymqi.CD(Version=pymqi.CMQXC.MQCD_VERSION_11)
    cd.ChannelName = MQDetails['CHANNEL'].encode()
    cd.ConnectionName = conn_info.encode()
    cd.ChannelType = pymqi.CMQXC.MQCHT_CLNTCONN
    cd.TransportType = pymqi.CMQXC.MQXPT_TCP
    sco = pymqi.SCO()
    csp = pymqi.CSP()
    csp.CSPUserId = credentials['USER'].encode()
    csp.CSPPassword = credentials['PASSWORD'].encode()
    qmgr = pymqi.QueueManager(None)
    qmgr.connect_with_options(MQDetails['QMGR'], cd=cd, sco=sco, csp=csp,
                              opts=pymqi.CMQC.MQCNO_HANDLE_SHARE_NO_BLOCK)
    return qmgr


def put_message(qmgr, msg_object):
    queue = pymqi.Queue(qmgr)
    od = pymqi.OD()
    od.ObjectName = MQDetails['QUEUE_NAME'].encode()
    queue.open(od, pymqi.CMQC.MQOO_OUTPUT)
    md = pymqi.MD()
    md.Format = pymqi.CMQC.MQFMT_STRING
    queue.put(json.dumps(msg_object).encode(), md)
    logger.info('Put message, MsgId %s', md.MsgId.hex())
    queue.close()


def get_messages(qmgr):
    queue = pymqi.Queue(qmgr, MQDetails['QUEUE_NAME'], pymqi.CMQC.MQOO_INPUT_AS_Q_DEF)
    got = []
    md = pymqi.MD()
    gmo = pymqi.GMO()
    gmo.Options = pymqi.CMQC.MQGMO_WAIT | pymqi.CMQC.MQGMO_FAIL_IF_QUIESCING
    gmo.WaitInterval = 1000
    keep_running = True
    while keep_running:
        try:
            message = queue.get(None, md, gmo)
            got.append(json.loads(message.decode()))
            md.MsgId = pymqi.CMQC.MQMI_NONE
            md.CorrelId = pymqi.CMQC.MQCI_NONE
            md.GroupId = pymqi.CMQC.MQGI_NONE
        except pymqi.MQMIError as e:
            if e.comp == pymqi.CMQC.MQCC_FAILED and e.reason == pymqi.CMQC.MQRC_NO_MSG_AVAILABLE:
                keep_running = False
            else:
                raise
    queue.close()
    return got


def subscribe(qmgr):
    sub = pymqi.Subscription(qmgr)
    sd = pymqi.SD(Options=pymqi.CMQC.MQSO_CREATE | pymqi.CMQC.MQSO_RESUME
                  | pymqi.CMQC.MQSO_DURABLE | pymqi.CMQC.MQSO_MANAGED)
    sd.set_vs('SubName', 'MySub')
    sd.set_vs('ObjectString', MQDetails['TOPIC_NAME'])
    sub.sub(sd)
    return sub


def publish(qmgr, msg_object):
    topic = pymqi.Topic(qmgr, topic_string=MQDetails['TOPIC_NAME'])
    topic.open(open_opts=pymqi.CMQC.MQOO_OUTPUT)
    md = pymqi.MD()
    md.Format = pymqi.CMQC.MQFMT_STRING
    topic.pub(json.dumps(msg_object).encode(), md)
    topic.close()


def receive_publication(sub):
    md = pymqi.MD()
    gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_NO_SYNCPOINT | pymqi.CMQC.MQGMO_FAIL_IF_QUIESCING
                    | pymqi.CMQC.MQGMO_WAIT)
    gmo['WaitInterval'] = 5000
    return json.loads(sub.get(None, md, gmo).decode())


qmgr = connect()
put_message(qmgr, {'Greeting': 'Hello from Python!'})
print('Got from queue: %s' % json.dumps(get_messages(qmgr)))
sub = subscribe(qmgr)
publish(qmgr, {'Price': 42})
print('Got publication: %s' % json.dumps(receive_publication(sub)))
sub.close(sub_close_options=pymqi.CMQC.MQCO_REMOVE_SUB, close_sub_queue=True)
qmgr.disconnect()
"""

REQUEST_REPLY = """\
# A request with a reply queue made from the developer model queue, and its answer, in the
# style of IBM's mq-dev-patterns basicrequest and basicresponse samples.
import json
import os

import pymqi

conn_info = '%s(%s)' % (os.getenv('HOST', 'localhost'), os.getenv('PORT', '1414'))
qmgr = pymqi.connect(os.getenv('QMGR', 'QM1'), 'DEV.APP.SVRCONN', conn_info,
                     os.getenv('APP_USER', 'app'), os.getenv('APP_PASSWORD', 'passw0rd'))

# The requester's reply queue: a dynamic queue from DEV.APP.MODEL.QUEUE.
dyn_od = pymqi.OD()
dyn_od.ObjectName = 'DEV.APP.MODEL.QUEUE'
dyn_od.DynamicQName = 'APP.REPLIES.*'
dyn_queue = pymqi.Queue(qmgr, dyn_od, pymqi.CMQC.MQOO_INPUT_EXCLUSIVE)
dynamic_queue_name = dyn_od.ObjectName.strip()
print('Reply queue: %s' % dynamic_queue_name.decode())

request_md = pymqi.MD()
request_md.ReplyToQ = dynamic_queue_name
request_md.MsgType = pymqi.CMQC.MQMT_REQUEST
request_md.Format = pymqi.CMQC.MQFMT_STRING
request_queue = pymqi.Queue(qmgr, 'DEV.QUEUE.2')
request_queue.put(json.dumps({'value': 7}).encode(), request_md)

# The responder: gets the request and answers to its ReplyToQ, CorrelId = the request's MsgId.
md = pymqi.MD()
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT | pymqi.CMQC.MQGMO_FAIL_IF_QUIESCING, WaitInterval=5000)
request = json.loads(request_queue.get(None, md, gmo).decode())
response_md = pymqi.MD()
response_md.CorrelId = md.MsgId
response_md.MsgType = pymqi.CMQC.MQMT_REPLY
response_md.Format = pymqi.CMQC.MQFMT_STRING
qmgr.put1(md.ReplyToQ.strip(), json.dumps({'square': request['value'] ** 2}).encode(), response_md)

# The requester: the reply that answers its request.
reply_md = pymqi.MD()
reply_md.CorrelId = request_md.MsgId
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT | pymqi.CMQC.MQGMO_FAIL_IF_QUIESCING, WaitInterval=5000)
gmo.MatchOptions = pymqi.CMQC.MQMO_MATCH_CORREL_ID
reply = json.loads(dyn_queue.get(None, reply_md, gmo).decode())
print('Reply: %s' % json.dumps(reply))

dyn_queue.close()
request_queue.close()
qmgr.disconnect()
"""
