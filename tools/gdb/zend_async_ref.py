# zend-async-ref gdb helpers: pretty-printers for the async ABI's structures
# and the mock engine's values, and commands that list the request's
# coroutines. tools/gdb/README.md describes them; in short:
#
#   (gdb) source tools/gdb/zend_async_ref.py
#   (gdb) print *coroutine        Async\Coroutine#5 waiting {spawned at ...}
#   (gdb) print pool->event       pool event {flags=0, refs=3, ...}: pool ...
#   (gdb) print *channel          Channel#1 {capacity=1, count=1, buffer=[...], ...}
#   (gdb) print zv                int(42), string("x"), object(Foo)#3, ...
#   (gdb) zar-coroutines          every live coroutine, its state and places
#   (gdb) zar-async               the async globals
#   (gdb) zar-bt 5                a suspended coroutine's backtrace
#   (gdb) zar-events              the reactor's events and libuv's handles
#   (gdb) zar-gcore FILE          a core file that keeps the coroutine stacks
#   (gdb) print *$zar_coroutine(5)
#
# Printers work from the ABI (Zend/zend_async_API.h) and the engine's types
# alone; what only the reference implementation knows (a pool's idle list,
# active and reserved counts and waiters; a channel's buffer, waiters and
# reservations; the scheduler's coroutine table; the reactor's live events
# and their ids; a future's id, a task group's tasks, an IO handle's read
# in flight) is read from core's types, from the global
# zar::core::internal::current_state and from the reactor's list of live
# events, which need core's debug information
# (a build with -g). Without it those parts are left out or reported
# missing. `print/r` shows a structure's raw fields.
#
# Nothing here runs code in the inferior: everything is read from memory,
# so the helpers work on core files and never disturb the process
# (zar-gcore only reads it, and writes a file).

import collections
import os
import struct

import gdb
import gdb.printing
import gdb.unwinder

# ---- Constants mirrored from the headers -----------------------------------

# zend_types.h
IS_UNDEF, IS_NULL, IS_FALSE, IS_TRUE, IS_LONG, IS_DOUBLE, IS_STRING = range(7)
IS_ARRAY, IS_OBJECT, IS_RESOURCE, IS_REFERENCE = 7, 8, 9, 10
IS_PTR = 13

# zend_async_API.h: event flags (bits 0-12) and the subtype bits (13+).
EVENT_FLAGS = [
    (1 << 0, "CLOSED"),
    (1 << 1, "RESULT_USED"),
    (1 << 2, "EXC_CAUGHT"),
    (1 << 3, "ZVAL_RESULT"),
    (1 << 4, "ZEND_OBJ"),
    (1 << 5, "NO_FREE_MEMORY"),
    (1 << 6, "EXCEPTION_HANDLED"),
    (1 << 7, "REFERENCE"),
    (1 << 8, "OBJ_REF"),
    (1 << 9, "CLOSE_FD"),
    (1 << 10, "HIDDEN"),
    (1 << 11, "BAILOUT"),
]
F_CLOSED = 1 << 0
F_ZEND_OBJ = 1 << 4
F_OBJ_REF = 1 << 8
SUBTYPE_FLAGS = {
    "coroutine": [
        (1 << 13, "STARTED"),
        (1 << 14, "CANCELLED"),
        (1 << 15, "ZOMBIE"),
        (1 << 16, "PROTECTED"),
        (1 << 17, "MAIN"),
        (1 << 18, "FIBER"),
        (1 << 19, "YIELD"),
    ],
    "timer": [(1 << 13, "MULTISHOT")],
    "future": [(1 << 13, "THREAD_SAFE"), (1 << 14, "IGNORED")],
    "IO": [(1 << 13, "MULTISHOT")],
    "thread": [(1 << 13, "RESULT_LOADED"), (1 << 14, "EXCEPTION_CONSUMED")],
}
COROUTINE_F_STARTED = 1 << 13
COROUTINE_F_CANCELLED = 1 << 14
COROUTINE_F_MAIN = 1 << 17

WAKER_NO_STATUS, WAKER_WAITING, WAKER_QUEUED, WAKER_IGNORED, WAKER_RESULT = range(5)
ASYNC_STATES = {0: "OFF", 1: "READY", 2: "ACTIVE"}
CIRCUIT_STATES = {0: "ACTIVE", 1: "INACTIVE", 2: "RECOVERING"}

# Source file (basename) of an event's info/dispose function -> its kind.
EVENT_KINDS = {
    "coroutine.cc": "coroutine",
    "pool.cc": "pool",
    "channel.cc": "channel",
    "scope.cc": "scope",
    "timer_event.cc": "timer",
    "trigger_event.cc": "trigger",
    "signal_event.cc": "signal",
    "poll_event.cc": "poll",
    "poll_proxy_event.cc": "poll proxy",
    "dns_event.cc": "DNS",
    "process_event.cc": "process",
    "exec_event.cc": "exec",
    "task.cc": "task",
    "thread_event.cc": "thread",
    "future.cc": "future",
    "task_group.cc": "task group",
    "filesystem_event.cc": "filesystem",
    "io_handle.cc": "IO",
    "listen_event.cc": "listen",
}

IO_TYPES = {0: "pipe", 1: "file", 2: "tcp", 3: "udp", 4: "tty"}
IO_STATE_BITS = [
    (1 << 0, "READABLE"),
    (1 << 1, "WRITABLE"),
    (1 << 2, "CLOSED"),
    (1 << 3, "EOF"),
    (1 << 4, "APPEND"),
    (1 << 5, "PRESERVE_FD"),
    (1 << 6, "OWNS_FD"),
]

# Core's per-request scheduler state (core/scheduler/scheduler.h).
SCHEDULER_STATE_SYMBOL = "zar::core::internal::current_state"

MAX_STRING = 64

# ---- Reading memory ---------------------------------------------------------

_types = {}


def _clear_type_cache(_event=None):
    _types.clear()


gdb.events.new_objfile.connect(_clear_type_cache)

# What the helpers derived from the process's memory (who waits where),
# kept until the process runs again or its memory is written: a listing of
# N coroutines then walks each queue and each coroutine's waker once, not
# once per coroutine.
_derived = {}


def _forget_derived(_event=None):
    _derived.clear()


for _registry in (gdb.events.cont, gdb.events.exited, gdb.events.new_objfile,
                  gdb.events.memory_changed, gdb.events.inferior_call):
    _registry.connect(_forget_derived)


def derived(key, compute):
    """compute(), remembered under `key` while the process stays stopped."""
    if key not in _derived:
        _derived[key] = compute()
    return _derived[key]


def lookup_type(name):
    """The gdb.Type called `name`, or None when no debug information has it."""
    if name not in _types:
        try:
            _types[name] = gdb.lookup_type(name)
        except gdb.error:
            return None
    return _types[name]


def tag(type_):
    t = type_.strip_typedefs()
    return t.tag or t.name


def is_null(pointer):
    return int(pointer) == 0


def cast_to(value, type_name):
    """`value` (a pointer or an lvalue) as a pointer to `type_name`, or None."""
    target = lookup_type(type_name)
    if target is None:
        return None
    if value.type.strip_typedefs().code != gdb.TYPE_CODE_PTR:
        value = value.address
    return value.cast(target.pointer())


def char_pointer():
    return gdb.lookup_type("char").pointer()


def zend_string_text(pointer, limit=MAX_STRING):
    """The text of a zend_string* (None for NULL), shortened past `limit`."""
    if is_null(pointer):
        return None
    length = int(pointer["len"])
    shown = min(length, limit) if limit else length
    data = pointer["val"].address.cast(char_pointer())
    text = data.string(encoding="utf-8", errors="replace", length=shown)
    return text + ("..." if shown < length else "")


def location(filename, lineno):
    """"file:line" of a script position, or None when there is none."""
    name = zend_string_text(filename, limit=0)
    if name is None:
        return None
    return "%s:%d" % (name, int(lineno))


# The project's own layers: the implementation (core/, the ABI's abi/)
# and zar::testing's coroutine helpers (Spawn, Await, Delay), folders of
# the source tree core was compiled from. A coroutine spawned or parked
# through them is shown from the caller's code.
LIBRARY_FOLDERS = ("core/", "abi/", "testing/")
FIBER_ENTRY = "zar::core::FiberEntry::Run"


def source_root():
    """The source tree core was compiled from ("/src/zend-async-ref/"), as
    the debug information of its fiber entry names it, or None."""
    def compute():
        symbol = gdb.lookup_global_symbol(FIBER_ENTRY)
        if symbol is None or symbol.symtab is None:
            return None
        path = symbol.symtab.fullname()
        suffix = "core/fiber/fiber.cc"
        return path[:-len(suffix)] if path.endswith(suffix) else None

    return derived("source root", compute)


def is_library_source(symtab):
    """Whether `symtab` (a gdb.Symtab) is a file of the project's own
    layers (LIBRARY_FOLDERS)."""
    root = source_root()
    if root is None:
        return False
    path = symtab.fullname()
    return path.startswith(root) and path[len(root):].startswith(
        LIBRARY_FOLDERS)


def code_location(address):
    """"file:line" of the C code at a return address (the call before it),
    or None when it is the project's own (is_library_source) or has no
    line."""
    if address == 0:
        return None
    sal = gdb.find_pc_line(address - 1)
    if sal.symtab is None or is_library_source(sal.symtab):
        return None
    return "%s:%d" % (sal.symtab.filename.rsplit("/", 1)[-1], sal.line)


def class_name(obj):
    """The class name of a zend_object*."""
    ce = obj["ce"]
    if is_null(ce):
        return "?"
    return zend_string_text(ce["name"], limit=0) or "?"


def object_text(obj):
    if is_null(obj):
        return "null"
    return "object(%s)#%d" % (class_name(obj), int(obj["handle"]))


def hash_count(table):
    return int(table["nNumOfElements"])


def hash_values(table):
    """The zvals of a HashTable (by value), in order, holes skipped."""
    data = table["arData"]
    for i in range(int(table["nNumUsed"])):
        value = data[i]["val"]
        if zval_type(value) != IS_UNDEF:
            yield value


def zval_type(zv):
    return int(zv["u1"]["v"]["type"])


def double_text(value):
    if value != value:
        return "NAN"
    if value in (float("inf"), float("-inf")):
        return "INF" if value > 0 else "-INF"
    if value.is_integer() and abs(value) < 1e15:
        return "%d" % value
    return repr(value)


def describe_zval(zv, depth=0):
    """A zval as the engine's Describe() renders it: int(42), string("x"),
    object(Foo)#3, ptr(0x...), array(2), ..."""
    kind = zval_type(zv)
    value = zv["value"]
    if kind == IS_UNDEF:
        return "undef"
    if kind == IS_NULL:
        return "null"
    if kind == IS_FALSE:
        return "bool(false)"
    if kind == IS_TRUE:
        return "bool(true)"
    if kind == IS_LONG:
        return "int(%d)" % int(value["lval"])
    if kind == IS_DOUBLE:
        return "float(%s)" % double_text(float(value["dval"]))
    if kind == IS_STRING:
        return 'string("%s")' % zend_string_text(value["str"])
    if kind == IS_ARRAY:
        return "array(%d)" % hash_count(value["arr"].dereference())
    if kind == IS_OBJECT:
        return object_text(value["obj"])
    if kind == IS_RESOURCE:
        return "resource(%d)" % int(value["res"]["handle"])
    if kind == IS_REFERENCE and depth < 4:
        return "reference(%s)" % describe_zval(value["ref"]["val"], depth + 1)
    if kind == IS_PTR:
        return "ptr(0x%x)" % int(value["ptr"])
    return "type(%d)" % kind


def fields(value):
    return {f.name for f in value.type.strip_typedefs().fields()}


def field_offset(type_, name):
    """The byte offset of the field `name` in the struct type `type_`."""
    for field in type_.strip_typedefs().fields():
        if field.name == name:
            return field.bitpos // 8
    raise gdb.GdbError("%s has no field %s" % (type_, name))


def flag_names(flags, table):
    return [name for bit, name in table if flags & bit]


def flags_text(flags, kind):
    names = flag_names(flags, EVENT_FLAGS)
    names += flag_names(flags, SUBTYPE_FLAGS.get(kind, []))
    known = 0
    for bit, _ in EVENT_FLAGS + SUBTYPE_FLAGS.get(kind, []):
        known |= bit
    unknown = flags & ~known
    if unknown:
        names.append("0x%x" % unknown)
    return "|".join(names) if names else "0"


def plural(count, word):
    return "%d %s%s" % (count, word, "" if count == 1 else "s")


# ---- Events -----------------------------------------------------------------


def event_object(event):
    """The zend_object* an F_ZEND_OBJ (or F_OBJ_REF) event belongs to, or
    None (ZEND_ASYNC_EVENT_TO_OBJECT)."""
    flags = int(event["flags"])
    object_type = lookup_type("zend_object")
    if object_type is None or not flags & (F_ZEND_OBJ | F_OBJ_REF):
        return None
    base = event.address.cast(char_pointer())
    if flags & F_OBJ_REF:
        slot = base + int(event["extra_offset"])
        return slot.cast(object_type.pointer().pointer()).dereference()
    return (base + int(event["zend_object_offset"])).cast(object_type.pointer())


def event_refs(event):
    """ZEND_ASYNC_EVENT_REFCOUNT: the object's refcount for object events."""
    obj = event_object(event)
    if obj is not None and int(event["flags"]) & F_ZEND_OBJ:
        return int(obj["gc"]["refcount"])
    return int(event["ref_count"])


def function_file(address):
    """The basename of the source file defining the function at `address`
    (the function's own file, not that of code inlined at its entry)."""
    try:
        # The outermost function block: an inlined function's block sits
        # inside the function it was inlined into.
        function = None
        block = gdb.block_for_pc(address)
        while block is not None:
            if block.function is not None:
                function = block.function
            block = block.superblock
        if function is not None:
            symtab = function.symtab
        else:
            symtab = gdb.find_pc_line(address).symtab
    except (gdb.error, RuntimeError):
        return None
    if symtab is None:
        return None
    return symtab.filename.replace("\\", "/").rsplit("/", 1)[-1]


def event_kind(event):
    """coroutine, pool, timer, ... from where the event's methods are
    defined; "event" when unknown (an extension's own event)."""
    for method in ("info", "dispose", "start"):
        address = int(event[method])
        if address == 0:
            continue
        kind = EVENT_KINDS.get(function_file(address))
        if kind is not None:
            return kind
    return "event"


def timer_detail(timer):
    return "%dms%s" % (int(timer["timeout"]),
                       ", periodic" if bool(timer["is_periodic"]) else "")


def process_detail(process):
    return "pid=%d, exit_code=%d" % (int(process["process"]),
                                     int(process["exit_code"]))


def event_detail(kind, event):
    """What event_summary adds for an event of `kind`: the summary of the
    kind's C struct; None for a kind without one."""
    details = {
        "coroutine": ("zend_coroutine_t", coroutine_summary),
        "pool": ("zend_async_pool_t", pool_summary),
        "channel": ("zend_async_channel_t", channel_summary),
        "IO": ("zend_async_io_t", io_summary),
        "timer": ("zend_async_timer_event_t", timer_detail),
        "process": ("zend_async_process_event_t", process_detail),
        "exec": ("zend_async_exec_event_t", exec_detail),
        "thread": ("zend_async_thread_event_t", thread_detail),
        "listen": ("zend_async_listen_event_t", listen_detail),
        "filesystem": ("zend_async_filesystem_event_t", filesystem_detail),
        "future": ("zend_future_t", future_detail),
        "task group": ("zar::core::TaskGroup", task_group_detail),
    }
    if kind not in details:
        return None
    type_name, describe = details[kind]
    value = cast_to(event, type_name)
    return None if value is None else describe(value.dereference())


# Kinds whose own summary lists the coroutines parked on them (with their
# reservations): event_summary does not list them again.
KINDS_LISTING_WAITERS = ("pool", "channel", "coroutine")


def event_summary(event):
    kind = event_kind(event)
    flags = int(event["flags"])
    callbacks = int(event["callbacks"]["length"])
    head = "%s event {flags=%s, refs=%d, callbacks=%d" % (
        kind, flags_text(flags, kind), event_refs(event), callbacks)
    loop_refs = int(event["loop_ref_count"])
    if loop_refs:
        head += ", loop_refs=%d" % loop_refs
    if callbacks and kind not in KINDS_LISTING_WAITERS:
        head += ", waiters=[%s]" % ", ".join(event_waiter_names(event))
    head += "}"
    detail = event_detail(kind, event)
    # A reactor event's summary starts with the name the trace gives it.
    core = event_core(event)
    if core is not None:
        detail = event_token(core) + (" " + detail if detail else "")
    return head + (": " + detail if detail else "")


FUTURE_BLOCK_TYPE = "zar::core::(anonymous namespace)::AsyncFuture"


def future_token(future):
    """"Future#2", the trace's name of a future core made (its id precedes
    the ABI struct in core's AsyncFuture), or None."""
    block_type = lookup_type(FUTURE_BLOCK_TYPE)
    if block_type is None:
        return None
    offset = field_offset(block_type, "future")
    block = (future.address.cast(char_pointer()) - offset).cast(
        block_type.pointer())
    return "Future#%d" % int(block["id"])


def future_detail(future):
    """A future's name (Future#2) and state: pending, or its result or
    exception; where it was created and completed; who still subscribes to
    it."""
    token = future_token(future)
    text = token + " " if token else ""
    if int(future["event"]["flags"]) & F_CLOSED:
        if not is_null(future["exception"]):
            text += "rejected with %s" % object_text(future["exception"])
        else:
            text += "completed with %s" % describe_zval(future["result"])
    else:
        text += "pending"
    text += ", created at %s" % (location(future["filename"],
                                          future["lineno"]) or "-")
    if int(future["event"]["flags"]) & F_CLOSED:
        text += ", completed at %s" % (location(future["completed_filename"],
                                                future["completed_lineno"])
                                       or "-")
    chains = int(future["resolve_callbacks"]["length"])
    if chains:
        text += ", %s" % plural(chains, "chain")
    return text


def summarize_future(value):
    return event_summary(value["event"])


def task_group_detail(group):
    """A task group (core's TaskGroup): its trace name, its tasks (as its
    info() counts them), those queued, and whether it is closed."""
    parts = ["total=%d" % hash_count(group["tasks"]),
             "active=%d" % int(group["active"])]
    if int(group["pending_count"]):
        parts.append("queued=%d" % int(group["pending_count"]))
    if bool(group["completed"]):
        parts.append("completed")
    elif bool(group["sealed"]):
        parts.append("closed")
    return "TaskGroup#%d {%s}" % (int(group["id"]), ", ".join(parts))


# ---- Reactor events -----------------------------------------------------------
#
# core/reactor keeps every live reactor event (timers, IO handles, signals,
# polls, DNS lookups, processes, threads, filesystem watches, listen
# sockets, thread pool tasks, ...) in one list, oldest first, of EventCore
# records: the kind (its EventKind, whose name the trace capitalises into
# the token, "Timer#2"), the ABI event, the libuv handle and the id.

REACTOR_LIVE_LIST = "zar::core::reactor::(anonymous namespace)::Live()::list"
REACTOR_LIVE_LIST_TYPE = "zar::core::reactor::(anonymous namespace)::LiveList"


def reactor_event_cores():
    """The live reactor events' EventCore values, oldest first; None when
    core's debug information (or the list's symbol) is missing."""
    list_type = lookup_type(REACTOR_LIVE_LIST_TYPE)
    if list_type is None:
        return None
    try:
        # A function's static: its symbol has no type of its own.
        address = gdb.parse_and_eval("&'%s'" % REACTOR_LIVE_LIST)
    except gdb.error:
        return None
    cores = []
    node = address.cast(list_type.pointer())["head"]
    while not is_null(node) and len(cores) < 100000:
        cores.append(node.dereference())
        node = node["next"]
    return cores


def event_core(event):
    """The EventCore of a live reactor event, or None (another kind of
    event, or one already destroyed)."""
    cores = derived("reactor events by address", lambda: {
        int(core["event"]): core for core in reactor_event_cores() or ()})
    return cores.get(int(event.address))


def event_kind_name(core):
    """The reactor's name of an event's kind: "timer", "IO", "poll proxy",
    "DNS addr info", ..."""
    return core["kind"]["name"].string()


def event_token(core):
    """"Timer#2": the kind's name in CamelCase ("poll proxy" ->
    "PollProxy") and the event's id, as the trace names it (EventToken in
    core/reactor/reactor_event.cc)."""
    kind = "".join(word[:1].upper() + word[1:]
                   for word in event_kind_name(core).split(" "))
    return "%s#%d" % (kind, int(core["id"]))


def io_operation(event):
    """The operation of the read (or UDP receive) in flight on an IO
    handle ("read", "recvfrom"), or None."""
    handle = cast_to(event, "zar::core::io::IoHandle")
    if handle is None or is_null(handle["active"]):
        return None
    request_type = ("zar::core::io::UdpRequest"
                    if int(handle["abi"]["type"]) == 3 else
                    "zar::core::io::IoRequest")
    request = cast_to(handle["active"], request_type)
    if request is None or is_null(request["op"]):
        return None
    return request["op"].string()


def reactor_wait_reason(event, core):
    """What a coroutine parked on a reactor event waits for, named as the
    trace names the event: "timer Timer#2 10ms", "io read IO#4", or the
    token ("Signal#3")."""
    token = event_token(core)
    kind = event_kind_name(core)
    if kind == "timer":
        timer = cast_to(event, "zend_async_timer_event_t").dereference()
        return "timer %s %dms%s" % (token, int(timer["timeout"]),
                                    " periodic" if bool(timer["is_periodic"])
                                    else "")
    if kind == "IO":
        operation = io_operation(event)
        return "io %s%s" % (operation + " " if operation else "", token)
    return token


def io_summary(io):
    """An IO handle (zend_async_io_t): type, descriptor, state bits."""
    type_ = IO_TYPES.get(int(io["type"]), "type(%d)" % int(io["type"]))
    descriptor = int(io["descriptor"]["fd"])
    state = int(io["state"])
    bits = "|".join(name for bit, name in IO_STATE_BITS if state & bit) or "0"
    return "%s fd=%d {%s}" % (type_, descriptor, bits)


def io_request_summary(req):
    """An IO request (zend_async_io_req_t or zend_async_udp_req_t)."""
    parts = ["completed" if bool(req["completed"]) else "in flight",
             "transferred=%d" % int(req["transferred"])]
    if bool(req["io_closed"]):
        parts.append("io_closed")
    if not is_null(req["exception"]):
        parts.append("exception=%s" % object_text(req["exception"]))
    return "IO request {%s}" % ", ".join(parts)


def summarize_io(value):
    return event_summary(value["event"])


# ---- Coroutines ---------------------------------------------------------------


def async_globals():
    symbol = gdb.lookup_global_symbol("zend_async_globals_api")
    return symbol.value() if symbol is not None else None


def coroutine_impl(coroutine):
    """core's AsyncCoroutine around a zend_coroutine_t (value), or None."""
    impl = cast_to(coroutine, "zar::core::AsyncCoroutine")
    return impl.dereference() if impl is not None else None


def coroutine_state(coroutine):
    """queued, waiting, running, finished, cancelled, created or suspended."""
    flags = int(coroutine["event"]["flags"])
    if flags & F_CLOSED:
        return "cancelled" if flags & COROUTINE_F_CANCELLED else "finished"
    g = async_globals()
    if g is not None and int(g["coroutine"]) == int(coroutine.address):
        return "running"
    if g is not None and int(g["scheduler"]) == int(coroutine.address):
        return "suspended"  # its fiber is switched out
    waker = coroutine["waker"]
    status = None if is_null(waker) else int(waker["status"])
    if status in (WAKER_QUEUED, WAKER_IGNORED):
        return "queued"
    if status == WAKER_WAITING:
        return "waiting"
    if not flags & COROUTINE_F_STARTED:
        impl = coroutine_impl(coroutine)
        if impl is not None and bool(impl["queued"]):
            return "queued"
        return "created"
    return "suspended"


def coroutine_role(coroutine):
    g = async_globals()
    if g is not None and int(g["scheduler"]) == int(coroutine.address):
        return "scheduler"
    if int(coroutine["event"]["flags"]) & COROUTINE_F_MAIN:
        return "main"
    return None


def coroutine_id(coroutine):
    obj = event_object(coroutine["event"])
    return int(obj["handle"]) if obj is not None else None


def spawned_at(coroutine):
    """Where a coroutine was spawned: its script position, or else the C
    code that called the scheduler's spawn (core records the call's return
    address), or None."""
    where = location(coroutine["filename"], coroutine["lineno"])
    if where is not None:
        return where
    impl_type = lookup_type("zar::core::AsyncCoroutine")
    if impl_type is None:
        return None
    site = coroutine.address.cast(impl_type.pointer())["spawn_site"]
    return code_location(int(site))


def suspended_at(coroutine, state):
    """Where a started coroutine that is not running last suspended."""
    waker = coroutine["waker"]
    started = int(coroutine["event"]["flags"]) & COROUTINE_F_STARTED
    if is_null(waker) or not started or state not in ("waiting", "queued",
                                                       "suspended"):
        return None
    return location(waker["filename"], waker["lineno"])


def awaiting(coroutine, state):
    waker = coroutine["waker"]
    if is_null(waker) or state != "waiting":
        return 0
    return hash_count(waker["events"])


def awaited_events(coroutine):
    """The events a waiting coroutine's waker waits for (zend_async_event_t
    pointers), in the order they were added."""
    return [trigger["event"] for trigger in waker_triggers(coroutine)]


def queue_places(queue):
    """Each coroutine's place (1, 2, ...) in core's WaiterQueue, by the
    coroutine's address."""
    places, node, place = {}, queue["front_"], 0
    while not is_null(node) and place < 1000000:
        place += 1
        places.setdefault(int(node["callback"]["coroutine"]), place)
        node = node["next"]
    return places


def queue_place(queue, coroutine):
    """"waiter i of n" for `coroutine` in core's WaiterQueue, or None."""
    places = derived(("queue", int(queue.address)),
                     lambda: queue_places(queue))
    place = places.get(int(coroutine.address))
    if place is None:
        return None
    return "waiter %d of %d" % (place, int(queue["size_"]))


def wait_reason(coroutine, event):
    """What a coroutine waits for on `event` (a pointer), named as the trace
    names the object, with the coroutine's place in line where coroutines
    queue: "Pool#1 acquire (waiter 2 of 2)", "Channel#1 send (waiter 1 of
    1)", "await #5 (waiter 1 of 1)", "Future#2 await (waiter 1 of 2)",
    "TaskGroup#1 await (waiter 1 of 1)", "timer Timer#2 10ms", "io read
    IO#4", a reactor event's token ("Signal#3"), or the event's kind."""
    kind = event_kind(event)

    def in_line(text):
        place = event_place(event.dereference(), coroutine)
        return text + (" (%s)" % place if place else "")

    if kind == "pool":
        impl = cast_to(event, "zar::core::AsyncPool")
        if impl is not None:
            place = queue_place(impl["waiters"], coroutine)
            return "Pool#%d acquire%s" % (
                int(impl["id"]), " (%s)" % place if place else "")
    if kind == "channel":
        impl = cast_to(event, "zar::core::AsyncChannel")
        if impl is not None:
            for queue, operation in (("receivers", "recv"), ("senders", "send")):
                place = queue_place(impl[queue], coroutine)
                if place is not None:
                    return "Channel#%d %s (%s)" % (int(impl["id"]), operation,
                                                   place)
            return "Channel#%d" % int(impl["id"])
    if kind == "coroutine":
        return in_line("await " + coroutine_name(
            event.cast(lookup_type("zend_coroutine_t").pointer())))
    if kind == "future":
        token = future_token(event.cast(
            lookup_type("zend_future_t").pointer()).dereference())
        if token is not None:
            return in_line(token + " await")
    if kind == "task group":
        group = cast_to(event, "zar::core::TaskGroup")
        if group is not None:
            return in_line("TaskGroup#%d await" % int(group["id"]))
    core = event_core(event.dereference())
    if core is not None:
        return reactor_wait_reason(event, core)
    return kind


def wait_reasons(coroutine, state):
    """What a waiting coroutine waits for, each event named (wait_reason),
    or None when it is not waiting."""
    if awaiting(coroutine, state) == 0:
        return None
    reasons = [wait_reason(coroutine, event)
               for event in awaited_events(coroutine)]
    return ", ".join(reasons) if reasons else plural(
        awaiting(coroutine, state), "event")


def coroutine_summary(coroutine):
    event = coroutine["event"]
    obj = event_object(event)
    name = "%s#%d" % (class_name(obj), int(obj["handle"])) if obj is not None \
        else "coroutine"
    state = coroutine_state(coroutine)
    role = coroutine_role(coroutine)
    parts = []
    spawned = spawned_at(coroutine)
    if spawned is not None:
        parts.append("spawned at " + spawned)
    where = suspended_at(coroutine, state)
    if where is not None:
        parts.append("suspended at " + where)
    count = awaiting(coroutine, state)
    if count:
        parts.append("awaiting " + plural(count, "event"))
    if int(event["callbacks"]["length"]):
        # The coroutines awaiting this one, in the order they will be told.
        parts.append("waiters=[%s]" % ", ".join(event_waiter_names(event)))
    if state in ("finished", "cancelled"):
        if zval_type(coroutine["result"]) != IS_UNDEF:
            parts.append("result=" + describe_zval(coroutine["result"]))
        if not is_null(coroutine["exception"]):
            parts.append("exception=" + object_text(coroutine["exception"]))
    parts.append("flags=" + flags_text(int(event["flags"]), "coroutine"))
    parts.append("refs=%d" % event_refs(event))
    return "%s %s%s {%s}" % (name, state, " (%s)" % role if role else "",
                             ", ".join(parts))


def scheduler_state():
    """core's SchedulerState* for the request (a gdb.Value, possibly NULL),
    or None when core's debug information is missing."""
    symbol = gdb.lookup_global_symbol(SCHEDULER_STATE_SYMBOL)
    if symbol is None:
        symbol = gdb.lookup_static_symbol(SCHEDULER_STATE_SYMBOL)
    if symbol is None:
        return None
    return symbol.value()


def live_coroutines(state):
    """The coroutines in the scheduler's table (zend_coroutine_t values)."""
    coroutine_type = lookup_type("zend_coroutine_t")
    for value in hash_values(state["coroutines"]):
        if zval_type(value) != IS_PTR:
            continue
        yield value["value"]["ptr"].cast(coroutine_type.pointer()).dereference()


def find_coroutine(handle):
    state = scheduler_state()
    if state is None or is_null(state):
        return None
    for coroutine in live_coroutines(state):
        if coroutine_id(coroutine) == handle:
            return coroutine
    scheduler = state["scheduler"]
    if not is_null(scheduler):
        coroutine = scheduler["coroutine"]
        if coroutine_id(coroutine) == handle:
            return coroutine
    return None


def coroutine_name(coroutine):
    """A coroutine (a zend_coroutine_t pointer) as the trace names it
    (zend_async_ref_coroutine_name): "main", "scheduler", "#<handle>",
    "#?" for one that is not an object, "none" for NULL."""
    if is_null(coroutine):
        return "none"
    g = async_globals()
    if g is not None and int(g["scheduler"]) == int(coroutine):
        return "scheduler"
    coroutine = coroutine.dereference()
    if int(coroutine["event"]["flags"]) & COROUTINE_F_MAIN:
        return "main"
    handle = coroutine_id(coroutine)
    return "#%d" % handle if handle is not None else "#?"


# ---- Waiters: who is parked on an object, oldest first ---------------------------

MAX_LISTED = 8


def listed(names, count):
    """`names` cut to MAX_LISTED, with "... N more" for the rest of
    `count`."""
    if count > MAX_LISTED:
        return names[:MAX_LISTED] + ["... %d more" % (count - MAX_LISTED)]
    return names


def waiter_names(queue):
    """The coroutines parked in core's WaiterQueue (pools, channels), oldest
    first, named as the trace names them, with " (reserved)" for those woken
    with a reservation."""
    names = []
    node = queue["front_"]
    while not is_null(node) and len(names) < MAX_LISTED:
        waiter = node.dereference()
        name = coroutine_name(waiter["callback"]["coroutine"])
        if bool(waiter["reserved"]):
            name += " (reserved)"
        names.append(name)
        node = waiter["next"]
    return listed(names, int(queue["size_"]))


def waker_triggers(coroutine):
    """The triggers of a coroutine's waker (zend_async_waker_trigger_t
    values: an event and the callbacks the waker registered on it), in the
    order the events were added."""
    trigger_type = lookup_type("zend_async_waker_trigger_t")
    waker = coroutine["waker"]
    if trigger_type is None or is_null(waker):
        return []
    triggers = []
    for value in hash_values(waker["events"]):
        if zval_type(value) != IS_PTR:
            continue
        trigger = value["value"]["ptr"].cast(trigger_type.pointer())
        if not is_null(trigger):
            triggers.append(trigger.dereference())
    return triggers


def event_waiters(event):
    """The coroutines parked on `event` (a zend_async_event_t value): those
    whose waker registered a callback on it, in the order of the event's
    callbacks vector (the order they will be notified in, oldest first)."""
    def compute():
        owners = derived("callback owners", callback_owners)
        callbacks = event["callbacks"]
        waiters, seen = [], set()
        for i in range(int(callbacks["length"])):
            coroutine = owners.get(int(callbacks["data"][i]))
            if coroutine is not None and int(coroutine.address) not in seen:
                seen.add(int(coroutine.address))
                waiters.append(coroutine)
        return waiters

    return derived(("event waiters", int(event.address)), compute)


def callback_owners():
    """The coroutine whose waker registered each callback, by the
    callback's address, for every live coroutine's waker."""
    state = scheduler_state()
    if state is None or is_null(state):
        return {}
    owners = {}
    for coroutine in live_coroutines(state):
        for trigger in waker_triggers(coroutine):
            data = trigger["data"][0].address  # a flexible array
            for i in range(int(trigger["length"])):
                owners[int(data[i])] = coroutine
    return owners


def event_waiter_names(event):
    """event_waiters, named as the trace names them."""
    waiters = event_waiters(event)
    return listed([coroutine_name(c.address) for c in waiters], len(waiters))


def event_place(event, coroutine):
    """"waiter i of n": `coroutine`'s place among event_waiters, or None."""
    waiters = event_waiters(event)
    places = derived(("event places", int(event.address)), lambda: {
        int(waiter.address): place for place, waiter in enumerate(waiters, 1)})
    place = places.get(int(coroutine.address))
    if place is None:
        return None
    return "waiter %d of %d" % (place, len(waiters))


# ---- Pools ---------------------------------------------------------------------


def queue_size(queue):
    """The number of waiters in core's WaiterQueue."""
    names = fields(queue)
    for name in ("size_", "size", "count_"):
        if name in names:
            return int(queue[name])
    for name in ("front_", "head_", "first_"):
        if name in names:
            count, node = 0, queue[name]
            while not is_null(node) and count < 100000:
                count += 1
                node = node["next"]
            return count
    return None


def ring_size(ring):
    names = fields(ring)
    for name in ("size_", "size"):
        if name in names:
            return int(ring[name])
    return None


def pool_summary(pool):
    """A zend_async_pool_t (value): its counts, limits and breaker."""
    parts = []
    impl = cast_to(pool, "zar::core::AsyncPool")
    if impl is not None:
        impl = impl.dereference()
        for label, count in (("idle", ring_size(impl["idle"])),
                             ("active", int(impl["active_count"])),
                             ("reserved", int(impl["reserved_count"]))):
            parts.append("%s=%s" % (label, "?" if count is None else count))
        # The parked acquires, oldest first, as the channel lists its own.
        parts.append("waiters=[%s]" % ", ".join(waiter_names(impl["waiters"])))
    parts.append("min=%d" % int(pool["min_size"]))
    parts.append("max=%d" % int(pool["max_size"]))
    state = int(pool["circuit_state"])
    parts.append("breaker=%s" % CIRCUIT_STATES.get(state, str(state)))
    if impl is not None and int(impl["healthcheck_interval_ms"]):
        parts.append("healthcheck=%dms" % int(impl["healthcheck_interval_ms"]))
    event = pool["event"]
    parts.append("refs=%d" % event_refs(event))
    closed = " closed" if int(event["flags"]) & F_CLOSED else ""
    wrapper = pool["wrapper"]
    owner = "" if is_null(wrapper) else " " + object_text(wrapper)
    if impl is None:
        parts.append("(no core debug info)")
        return "pool%s%s {%s}" % (owner, closed, ", ".join(parts))
    # The id the trace and strict mode name it by ("Pool#1").
    return "Pool#%d%s%s {%s}" % (int(impl["id"]), owner, closed,
                                 ", ".join(parts))


# ---- Channels -------------------------------------------------------------------


def ring_values(ring):
    """The zvals of core's RingBuffer<zval>, oldest first (at most
    MAX_LISTED), and how many there are."""
    size = int(ring["size_"])
    capacity = int(ring["capacity_"])
    head = int(ring["head_"])
    data = ring["data_"]
    values = []
    for i in range(min(size, MAX_LISTED)):
        values.append(describe_zval(data[(head + i) & (capacity - 1)]))
    return values, size


def channel_summary(channel):
    """A zend_async_channel_t (value): capacity, the values it holds (the
    buffer, oldest first), the parked receivers and senders (oldest first)
    and the reservations."""
    impl = cast_to(channel, "zar::core::AsyncChannel")
    event = channel["event"]
    closed = " closed" if int(event["flags"]) & F_CLOSED else ""
    if impl is None:
        return "channel%s {refs=%d, (no core debug info)}" % (
            closed, event_refs(event))
    impl = impl.dereference()
    values, count = ring_values(impl["buffer"])
    if count > len(values):
        values.append("... %d more" % (count - len(values)))
    senders = waiter_names(impl["senders"])
    delivering = impl["delivering"]
    if not is_null(delivering):
        coroutine = delivering.dereference()["callback"]["coroutine"]
        senders.insert(0, "#%s (delivering)" % coroutine_id(
            coroutine.dereference()))
    parts = [
        "capacity=%d" % int(impl["capacity"]),
        "count=%d" % count,
        "buffer=[%s]" % ", ".join(values),
        "receivers=[%s]" % ", ".join(waiter_names(impl["receivers"])),
        "senders=[%s]" % ", ".join(senders),
        "reserved=%d/%d" % (int(impl["reserved_receivers"]),
                            int(impl["reserved_senders"])),
        "refs=%d" % event_refs(event),
    ]
    return "Channel#%d%s {%s}" % (int(impl["id"]), closed, ", ".join(parts))


def summarize_channel_impl(value):
    return channel_summary(value["base"])


# ---- Pretty-printers ------------------------------------------------------------


class SummaryPrinter:
    """Prints one line computed by `summarize` from the value."""

    def __init__(self, value, summarize):
        self.value = value
        self.summarize = summarize

    def to_string(self):
        try:
            return self.summarize(self.value)
        except gdb.MemoryError:
            return "<unreadable at 0x%x>" % int(self.value.address or 0)


class PointerPrinter:
    """A pointer to a known structure: the address, then its summary."""

    def __init__(self, value, summarize):
        self.value = value
        self.summarize = summarize

    def to_string(self):
        address = int(self.value)
        if address == 0:
            return "0x0"
        try:
            return "0x%x %s" % (address,
                                self.summarize(self.value.dereference()))
        except gdb.MemoryError:
            return "0x%x <unreadable>" % address


def summarize_coroutine_impl(value):
    return coroutine_summary(value["coroutine"])


def summarize_pool_impl(value):
    return pool_summary(value["base"])


def summarize_timer(value):
    return event_summary(value["base"])


def exec_detail(exec_event):
    """The command, then running or how it ended."""
    cmd = exec_event["cmd"]
    text = "<null>" if is_null(cmd) else cmd.string(
        encoding="utf-8", errors="replace")
    if not bool(exec_event["terminated"]):
        return '"%s", running' % text
    return '"%s", exit_code=%d, term_signal=%d' % (
        text, int(exec_event["exit_code"]), int(exec_event["term_signal"]))


def thread_detail(thread):
    """The OS thread ("not started" before it runs, "detached" once
    disposed), the result and the exception handed over."""
    context = thread["context"]
    parts = []
    if is_null(context):
        parts.append("detached")
    else:
        thread_id = int(context["thread_id"]["value"])
        parts.append("thread=0x%x" % thread_id if thread_id else "not started")
    parts.append("result=" + describe_zval(thread["result"]))
    exception = thread["exception"]
    if not is_null(exception):
        # Until the parent loads it, the exception is a transit shell whose
        # `ce` holds the class name, not a class entry.
        loaded = int(thread["base"]["flags"]) & (1 << 13)
        parts.append("exception=object(%s)" % class_name(exception)
                     if loaded else "exception=transferred")
    return ", ".join(parts)


def listen_detail(listen):
    """host:port (the address asked for; <null> for an adopted socket),
    the backlog and the socket."""
    host = listen["host"]
    text = "<null>" if is_null(host) else host.string(
        encoding="utf-8", errors="replace")
    return "%s:%d, backlog=%d, fd=%d" % (text, int(listen["port"]),
                                        int(listen["backlog"]),
                                        int(listen["socket_fd"]))


def filesystem_detail(watch):
    """The watched path (recursive or not) and the last change notified."""
    path = zend_string_text(watch["path"])
    text = path if path is not None else "<null>"
    if int(watch["flags"]) & 1:  # ZEND_ASYNC_FS_EVENT_RECURSIVE
        text += ", recursive"
    events = int(watch["triggered_events"])
    if events:
        kinds = [name for bit, name in ((1, "rename"), (2, "change"))
                 if events & bit]
        name = zend_string_text(watch["triggered_filename"])
        text += ", last=%s %s" % ("|".join(kinds),
                                  name if name is not None else "<null>")
    return text


def summarize_listen(value):
    return event_summary(value["base"])


def summarize_filesystem(value):
    return event_summary(value["base"])


def summarize_string(value):
    return '"%s"' % zend_string_text(value.address)


def summarize_object(value):
    return object_text(value.address)


def thread_pool_summary(pool):
    """A zend_async_thread_pool_t (value): its workers, counters and refs."""
    text = "thread pool {workers=%d, pending=%d, running=%d, completed=%d" % (
        int(pool["worker_count"]), int(pool["pending_count"]["value"]),
        int(pool["running_count"]["value"]),
        int(pool["completed_count"]["value"]))
    if int(pool["closed"]["value"]):
        text += ", closed"
    return text + ", refs=%d}" % int(pool["ref_count"]["value"])


def summarize_array(value):
    return "array(%d)" % hash_count(value)


STRUCT_PRINTERS = {
    "_zend_async_event_s": event_summary,
    "_zend_coroutine_s": coroutine_summary,
    "zar::core::AsyncCoroutine": summarize_coroutine_impl,
    "_zend_async_pool_s": pool_summary,
    "zar::core::AsyncPool": summarize_pool_impl,
    "_zend_async_channel_s": channel_summary,
    "zar::core::AsyncChannel": summarize_channel_impl,
    "_zend_async_timer_event_s": summarize_timer,
    "_zend_async_io_s": summarize_io,
    "_zend_async_io_req_s": io_request_summary,
    "_zend_async_udp_req_s": io_request_summary,
    "_zend_async_listen_event_s": summarize_listen,
    "_zend_async_filesystem_event_s": summarize_filesystem,
    "_zend_future_s": summarize_future,
    "_zend_async_thread_pool_s": thread_pool_summary,
    "_zval_struct": describe_zval,
    "_zend_string": summarize_string,
    "_zend_object": summarize_object,
}
# Pointers printed with their summary: those to the structs above but
# these, which keep gdb's plain pointer display (as do arrays).
PLAIN_POINTERS = (
    "_zend_async_timer_event_s",
    "_zend_async_listen_event_s",
    "_zend_async_filesystem_event_s",
    "_zval_struct",
    "_zend_string",
    "_zend_object",
)
POINTER_PRINTERS = {name: printer for name, printer in STRUCT_PRINTERS.items()
                    if name not in PLAIN_POINTERS}


class ZendAsyncRefPrinters(gdb.printing.PrettyPrinter):
    def __init__(self):
        super().__init__("zend-async-ref")

    def __call__(self, value):
        type_ = value.type.strip_typedefs()
        if type_.code == gdb.TYPE_CODE_PTR:
            summarize = POINTER_PRINTERS.get(tag(type_.target()))
            return PointerPrinter(value, summarize) if summarize else None
        if type_.code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            return None
        summarize = STRUCT_PRINTERS.get(tag(type_))
        return SummaryPrinter(value, summarize) if summarize else None


# ---- Commands ---------------------------------------------------------------------


def missing_debug_information(command, symbol):
    """The error of a command that needs `symbol` from core's debug
    information."""
    return gdb.GdbError("%s: %s not found: the program needs core's debug "
                        "information (build with -g)" % (command, symbol))


class CoroutinesCommand(gdb.Command):
    """List the request's coroutines: id, state, where each was spawned (its
script position, or the C line that spawned it) and where it suspended (a
script position), where its C code is parked (the function of the
project's own layers it called and the caller's file and line,
"PoolAcquire from ext.c:112", from the coroutine's backtrace as zar-bt
shows it), and what a waiting one waits for, each event named as the
trace names it, with the coroutine's place in line where coroutines queue:
"Pool#1 acquire (waiter 2 of 2)", "Channel#1 send (waiter 1 of 1)", "await
#5 (waiter 1 of 1)", "Future#2 await (waiter 1 of 2)", "TaskGroup#1 await
(waiter 1 of 1)", "timer Timer#6 60000ms", "io read IO#5", "Signal#3".

Usage: zar-coroutines

States: running (the current coroutine), queued (in the run queue),
waiting (suspended on events), suspended, created (not yet queued),
finished, cancelled. "*" marks the current coroutine. The table is the
scheduler's: every live coroutine except the scheduler's own, which is
shown last."""

    def __init__(self):
        super().__init__("zar-coroutines", gdb.COMMAND_DATA)

    def invoke(self, argument, from_tty):
        state = scheduler_state()
        if state is None:
            raise missing_debug_information("zar-coroutines",
                                            SCHEDULER_STATE_SYMBOL)
        if is_null(state):
            gdb.write("No scheduler in this request (it launches at the "
                      "first spawn).\n")
            return
        rows = [(coroutine_id(c), c) for c in live_coroutines(state)]
        rows.sort(key=lambda row: row[0])
        g = async_globals()
        current = int(g["coroutine"]) if g is not None else 0
        gdb.write("  %-5s  %-9s  %-9s  %-24s  %-24s  %-36s  %s\n" % (
            "id", "state", "role", "spawned at", "suspended at", "parked in",
            "waiting for"))
        for handle, coroutine in rows:
            self.write_row(handle, coroutine, current)
        scheduler = state["scheduler"]
        if not is_null(scheduler):
            coroutine = scheduler["coroutine"]
            self.write_row(coroutine_id(coroutine), coroutine, current)
        gdb.write("%s; run queue: %s.\n" % (
            plural(len(rows), "coroutine"),
            ring_size(state["run_queue"])))

    @staticmethod
    def write_row(handle, coroutine, current):
        state = coroutine_state(coroutine)
        marker = "*" if int(coroutine.address) == current else " "
        gdb.write("%s #%-4d  %-9s  %-9s  %-24s  %-24s  %-36s  %s\n" % (
            marker, handle, state, coroutine_role(coroutine) or "-",
            spawned_at(coroutine) or "-",
            suspended_at(coroutine, state) or "-",
            parked_in(coroutine) or "-",
            wait_reasons(coroutine, state) or "-"))


class AsyncCommand(gdb.Command):
    """Show the async globals (zend_async_globals_api): state, current,
main and scheduler coroutine, active coroutine and event counts, graceful
shutdown and the exit exception.

Usage: zar-async"""

    def __init__(self):
        super().__init__("zar-async", gdb.COMMAND_DATA)

    def invoke(self, argument, from_tty):
        g = async_globals()
        if g is None:
            raise gdb.GdbError("zar-async: zend_async_globals_api not found")

        def coroutine(name):
            pointer = g[name]
            if is_null(pointer):
                return "none"
            handle = coroutine_id(pointer.dereference())
            return "#%d" % handle if handle is not None else "0x%x" % int(pointer)

        state = int(g["state"])
        gdb.write("state=%s current=%s main=%s scheduler=%s "
                  "active_coroutines=%d active_events=%d "
                  "in_scheduler_context=%s graceful_shutdown=%s "
                  "exit_exception=%s\n" % (
                      ASYNC_STATES.get(state, str(state)), coroutine("coroutine"),
                      coroutine("main_coroutine"), coroutine("scheduler"),
                      int(g["active_coroutine_count"]),
                      int(g["active_event_count"]),
                      str(bool(g["in_scheduler_context"])).lower(),
                      str(bool(g["graceful_shutdown"])).lower(),
                      object_text(g["exit_exception"])
                      if not is_null(g["exit_exception"]) else "none"))


# libuv's handle types as uv_print_all_handles names them (uv.h's
# UV_HANDLE_TYPE_MAP), and its handle flags (uv-common.h, libuv 1.x).
UV_HANDLE_TYPE_NAMES = {
    "UV_ASYNC": "async", "UV_CHECK": "check", "UV_FS_EVENT": "fs_event",
    "UV_FS_POLL": "fs_poll", "UV_HANDLE": "handle", "UV_IDLE": "idle",
    "UV_NAMED_PIPE": "pipe", "UV_POLL": "poll", "UV_PREPARE": "prepare",
    "UV_PROCESS": "process", "UV_STREAM": "stream", "UV_TCP": "tcp",
    "UV_TIMER": "timer", "UV_TTY": "tty", "UV_UDP": "udp",
    "UV_SIGNAL": "signal",
}
UV_HANDLE_CLOSING = 0x1
UV_HANDLE_ACTIVE = 0x4
UV_HANDLE_REF = 0x8
UV_HANDLE_INTERNAL = 0x10


def queue_next(node):
    """The next node of a libuv queue: a `void *[2]` (libuv < 1.46) or a
    struct uv__queue (libuv >= 1.46), given by address."""
    type_ = node.type.strip_typedefs().target().strip_typedefs()
    if type_.code == gdb.TYPE_CODE_ARRAY:
        return node.dereference()[0]
    return node["next"]


def loop_handles(loop):
    """The handles of a uv_loop_t (a value), in its handle_queue's order
    (the order they were initialised), as uv_handle_t pointers."""
    handle_type = lookup_type("uv_handle_t")
    offset = field_offset(handle_type, "handle_queue")
    head = loop["handle_queue"].address
    node = queue_next(head)
    handles = []
    while int(node) != int(head) and len(handles) < 100000:
        handles.append((node.cast(char_pointer()) - offset).cast(
            handle_type.pointer()))
        node = queue_next(node.cast(head.type))
    return handles


def handle_line(handle):
    """A libuv handle as uv_print_all_handles prints it: "[RAI] type
    address", each flag "-" when not set (R: referenced, A: active, I:
    internal to libuv)."""
    flags = int(handle["flags"])
    kind = UV_HANDLE_TYPE_NAMES.get(str(handle["type"]), "<unknown>")
    return "[%s%s%s] %-8s 0x%x" % (
        "R" if flags & UV_HANDLE_REF else "-",
        "A" if flags & UV_HANDLE_ACTIVE else "-",
        "I" if flags & UV_HANDLE_INTERNAL else "-",
        kind, int(handle))


def destroyed_owner(handle):
    """"Timer#4 destroyed, closing" for the handle of a reactor event
    destroyed before its handle's close callback ran (the event's memory,
    the handle's data, stays until then); "closing" for another handle
    being closed; None otherwise."""
    if not int(handle["flags"]) & UV_HANDLE_CLOSING:
        return None
    core_type = lookup_type("zar::core::reactor::EventCore")
    if core_type is not None and not is_null(handle["data"]):
        try:
            core = handle["data"].cast(core_type.pointer()).dereference()
            if int(core["handle"]) == int(handle) and bool(core["destroyed"]):
                return event_token(core) + " destroyed, closing"
        except gdb.MemoryError:
            pass
    return "closing"


class EventsCommand(gdb.Command):
    """List the request's reactor events and its libuv loop's handles.

Usage: zar-events

For each live reactor event, oldest first: the name the trace gives it
(Timer#2), its kind, started (it holds loop references) or stopped, and
closed, ZEND_ASYNC_EVENT_REFCOUNT, loop references, callbacks, the
coroutines parked on it in the order they will be notified, and what its
kind adds (a timer's timeout, an IO handle's descriptor, ...). Then every
handle of the request's libuv loop (ASYNC_G(uvloop)) as libuv's
uv_print_all_handles prints it, "[RAI] type address" (R referenced, A
active, I internal to libuv, "-" when not), followed by the event that owns
it ("Timer#4 destroyed, closing" for the handle of an event destroyed
before the loop ran its close callback; "closing" for another handle being
closed)."""

    def __init__(self):
        super().__init__("zar-events", gdb.COMMAND_DATA)

    def invoke(self, argument, from_tty):
        cores = reactor_event_cores()
        if cores is None:
            raise missing_debug_information("zar-events", REACTOR_LIVE_LIST)
        gdb.write("  %-14s  %-13s  %-15s  %-4s  %-9s  %-9s  %-16s  %s\n" % (
            "event", "kind", "state", "refs", "loop_refs", "callbacks",
            "waiters", "detail"))
        owners = {}
        for core in cores:
            event = core["event"].dereference()
            if not is_null(core["handle"]):
                owners[int(core["handle"])] = event_token(core)
            state = "started" if int(event["loop_ref_count"]) else "stopped"
            if int(event["flags"]) & F_CLOSED:
                state += ", closed"
            waiters = event_waiter_names(event)
            gdb.write("  %-14s  %-13s  %-15s  %-4d  %-9d  %-9d  %-16s  %s\n" % (
                event_token(core), event_kind_name(core), state,
                event_refs(event), int(event["loop_ref_count"]),
                int(event["callbacks"]["length"]),
                "[%s]" % ", ".join(waiters) if waiters else "-",
                event_detail(event_kind(event), event) or "-"))
        gdb.write("%s.\n" % plural(len(cores), "reactor event"))

        g = gdb.lookup_global_symbol("async_globals")
        if g is None:
            raise gdb.GdbError("zar-events: async_globals (ASYNC_G) not found")
        g = g.value()
        if not bool(g["reactor_started"]):
            gdb.write("The request's loop is not initialised.\n")
            return
        loop = g["uvloop"]
        handles = loop_handles(loop)
        gdb.write("Loop 0x%x: %s, %d active.\n" % (
            int(loop.address), plural(len(handles), "handle"),
            int(loop["active_handles"])))
        for handle in handles:
            owner = owners.get(int(handle)) or destroyed_owner(handle)
            gdb.write(handle_line(handle) +
                      ("  %s" % owner if owner else "") + "\n")


class CoroutineFunction(gdb.Function):
    """$zar_coroutine(id): the live coroutine whose object handle is `id`,
as a zend_coroutine_t*. Example: print *$zar_coroutine(5)"""

    def __init__(self):
        super().__init__("zar_coroutine")

    def invoke(self, handle):
        coroutine = find_coroutine(int(handle))
        if coroutine is None:
            raise gdb.GdbError("no live coroutine #%d" % int(handle))
        return coroutine.address


# ---- Backtraces of suspended coroutines ----------------------------------------
#
# gdb unwinds the running stack only; a suspended coroutine's frames are on
# its fiber's own stack. Its switch away (Boost.Context's jump_fcontext)
# pushed the registers a call preserves and the return address there and
# left the fiber's Fiber::context_ pointing at them. x86-64 System V layout
# (Boost 1.74, no shadow stack): +0x00 MXCSR and x87 control word, +0x08
# r12, +0x10 r13, +0x18 r14, +0x20 r15, +0x28 rbx, +0x30 rbp, +0x38 the
# return address; the caller's stack pointer is context + 0x40.
#
# While zar-bt shows a coroutine, FiberUnwinder claims the innermost frame
# and gives as its caller those saved registers, so gdb unwinds the
# coroutine's stack from the switch that parked it down to the fiber's first
# frame, FiberEntry::Run (what lies beyond make_fcontext is not a frame).
# Only memory is read, so it works on core files too.

FCONTEXT_REGISTERS = (("r12", 0x08), ("r13", 0x10), ("r14", 0x18),
                      ("r15", 0x20), ("rbx", 0x28), ("rbp", 0x30))
FCONTEXT_RETURN_ADDRESS = 0x38
FCONTEXT_SIZE = 0x40


class _FrameId(object):
    """The identity of an unwound frame (gdb 13's unwinder API wants an
    object with sp and pc)."""

    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class FiberUnwinder(gdb.unwinder.Unwinder):
    """Unwinds into a suspended fiber's stack while `context` is set."""

    context = None  # the saved fcontext's address (an int), or None

    def __init__(self):
        super().__init__("zend-async-ref fibers")

    def __call__(self, pending_frame):
        context = FiberUnwinder.context
        if context is None or pending_frame.level() != 0:
            return None
        # The innermost frame is identified by the fiber's saved context,
        # which lies below every frame of the fiber's stack: gdb refuses a
        # caller frame inner to (below) its callee, as the fiber's frames
        # would be when the running stack is above them.
        info = pending_frame.create_unwind_info(_FrameId(
            gdb.Value(context).cast(lookup_type("void").pointer()),
            pending_frame.read_register("rip")))
        word = lookup_type("unsigned long").pointer()
        pointer = lookup_type("void").pointer()

        def saved(offset):
            return gdb.Value(context + offset).cast(word).dereference()

        info.add_saved_register(
            "rip", saved(FCONTEXT_RETURN_ADDRESS).cast(pointer))
        info.add_saved_register(
            "rsp", gdb.Value(context + FCONTEXT_SIZE).cast(pointer))
        for register, offset in FCONTEXT_REGISTERS:
            info.add_saved_register(register, saved(offset))
        return info


def selected_level():
    level, frame = 0, gdb.selected_frame()
    while frame.newer() is not None:
        frame = frame.newer()
        level += 1
    return level


def flush_frames(level):
    """Drops gdb's frames (they are unwound again, with or without the
    fiber's) and selects frame `level` again."""
    gdb.execute("maintenance flush register-cache", to_string=True)
    frame = gdb.newest_frame()
    for _ in range(level):
        if frame.older() is None:
            break
        frame = frame.older()
    frame.select()


# A frame of a suspended coroutine: its function's name, its source file
# as the debug information names it (or None) and line, and whether the
# file is the project's own (is_library_source).
SuspendedFrame = collections.namedtuple(
    "SuspendedFrame", ("function", "filename", "line", "library"))


def frame_line(level, frame):
    where = " at %s:%d" % (frame.filename, frame.line) if frame.filename \
        else ""
    return "#%-2d %s%s\n" % (level, frame.function, where)


def suspended_frames(coroutine):
    """A suspended coroutine's frames, innermost first, as SuspendedFrame
    tuples down to its fiber's first frame; or, when it has none to show,
    a string saying why."""
    fiber_type = lookup_type("zar::core::AsyncCoroutine")
    if fiber_type is None:
        raise gdb.GdbError("zar::core::AsyncCoroutine not found: the program "
                           "needs core's debug information")
    fiber = coroutine.address.cast(fiber_type.pointer())["fiber"]
    if not int(coroutine["event"]["flags"]) & COROUTINE_F_STARTED:
        # A stack may be reserved already; nothing has run on it.
        return "no frames: not started"
    if is_null(fiber):
        return "no frames: %s" % coroutine_state(coroutine)
    context = fiber["context_"]
    if is_null(context):
        # Or the core file lacks the fiber's stack, where the Fiber lives:
        # gdb's gcore leaves the fibers' stacks out (their guard pages
        # cannot be read); zar-gcore and the kernel write them.
        return ("no saved context: the fiber has not switched away, or "
                "this core file lacks its stack (write cores with "
                "zar-gcore)")
    if gdb.selected_inferior().architecture().name() != "i386:x86-64":
        raise gdb.GdbError("only x86-64 fibers are decoded")
    frames = []
    level = selected_level()
    FiberUnwinder.context = int(context)
    flush_frames(0)
    try:
        frame = gdb.newest_frame().older()  # the innermost is the running one
        while frame is not None:
            sal = frame.find_sal()
            frames.append(SuspendedFrame(
                frame.name() or "??",
                sal.symtab.filename if sal.symtab else None, sal.line,
                sal.symtab is not None and is_library_source(sal.symtab)))
            if frame.name() == FIBER_ENTRY:
                break
            frame = frame.older()
    finally:
        FiberUnwinder.context = None
        flush_frames(level)
    return frames


def is_running(coroutine):
    g = async_globals()
    return g is not None and int(g["coroutine"]) == int(coroutine.address)


def coroutine_backtrace(coroutine):
    """The lines of a coroutine's backtrace (a list of strings); gdb's own
    backtrace for the running coroutine."""
    if is_running(coroutine):
        return [gdb.execute("backtrace", to_string=True)]
    frames = suspended_frames(coroutine)
    if isinstance(frames, str):
        return ["(%s)\n" % frames]
    return [frame_line(level, frame) for level, frame in enumerate(frames)]


def parked_in(coroutine):
    """Where a suspended coroutine's own code called into the
    implementation and was parked: "PoolAcquire from gdb_fixture.cc:112"
    (the outermost frame of the innermost run of the project's own frames,
    and its caller), or None."""
    if is_running(coroutine):
        return None
    frames = suspended_frames(coroutine)
    if isinstance(frames, str):
        return None
    entry = None
    for frame in frames:
        if frame.library:
            entry = frame.function
            continue
        if entry is None or frame.filename is None:
            return None
        return "%s from %s:%d" % (entry.split("::")[-1],
                                  frame.filename.rsplit("/", 1)[-1],
                                  frame.line)
    return None


class BacktraceCommand(gdb.Command):
    """Show a coroutine's backtrace, suspended or running.

Usage: zar-bt ID | zar-bt EXPRESSION | zar-bt all

ID is the coroutine's id (zar-coroutines lists them); an EXPRESSION is a
zend_coroutine_t* (or a zend_coroutine_t). A suspended coroutine's frames
run from the switch that parked it down to its fiber's first frame; the
running one's are gdb's backtrace. `all` shows every live coroutine's."""

    def __init__(self):
        super().__init__("zar-bt", gdb.COMMAND_STACK)

    def invoke(self, argument, from_tty):
        argument = argument.strip()
        if argument == "all":
            state = scheduler_state()
            if state is None or is_null(state):
                raise gdb.GdbError("zar-bt: no scheduler in this request")
            rows = sorted(((coroutine_id(c), c) for c in live_coroutines(state)),
                          key=lambda row: row[0])
            for handle, coroutine in rows:
                gdb.write("Coroutine #%d (%s):\n" % (
                    handle, coroutine_state(coroutine)))
                gdb.write("".join(coroutine_backtrace(coroutine)))
            return
        if not argument:
            raise gdb.GdbError("usage: zar-bt ID | EXPRESSION | all")
        if argument.isdigit():
            coroutine = find_coroutine(int(argument))
            if coroutine is None:
                raise gdb.GdbError("zar-bt: no live coroutine #%s" % argument)
        else:
            coroutine = gdb.parse_and_eval(argument)
            if coroutine.type.strip_typedefs().code == gdb.TYPE_CODE_PTR:
                coroutine = coroutine.dereference()
        gdb.write("".join(coroutine_backtrace(coroutine)))


# ---- Core files that keep the coroutines' stacks ---------------------------
#
# A coroutine's stack starts with a guard page (mock_zend's fiber stacks):
# a guard marker where the kernel has them (Linux 6.13+), which lies inside
# the stack's mapping and cannot be read. gdb's gcore copies each mapping in
# 1 MiB pieces and gives up on a mapping at the first piece it cannot read,
# so neighbouring stacks, merged into one mapping, all come out as zeros.
# zar-gcore writes the core with gcore, then copies what gcore gave up on
# into it, page by page: gcore keeps every mapping's room in the file
# (p_filesz covers it), so the pages go to their place and the guard pages
# stay zeros, as in a core the kernel writes.

ELF_HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
PROGRAM_HEADER = struct.Struct("<IIQQQQQQ")
PT_LOAD = 1
GCORE_PIECE = 1 << 20  # gdb's gcore copies a mapping in pieces of 1 MiB


def core_load_segments(core):
    """The core file's PT_LOAD segments with contents in the file, as
    (address, file offset, size)."""
    header = ELF_HEADER.unpack(core.read(ELF_HEADER.size))
    ident, phoff, phentsize, phnum = header[0], header[5], header[9], header[10]
    if ident[:4] != b"\x7fELF" or ident[4] != 2 or ident[5] != 1:
        raise gdb.GdbError("zar-gcore: the core is not a 64-bit "
                           "little-endian ELF file")
    segments = []
    for index in range(phnum):
        core.seek(phoff + index * phentsize)
        (kind, _flags, offset, vaddr, _paddr, filesz, _memsz,
         _align) = PROGRAM_HEADER.unpack(core.read(PROGRAM_HEADER.size))
        if kind == PT_LOAD and filesz > 0:
            segments.append((vaddr, offset, filesz))
    return segments


def read_or_none(inferior, address, size):
    try:
        return inferior.read_memory(address, size)
    except gdb.MemoryError:
        return None


def fill_unread_pages(core, inferior, address, offset, size, page):
    """Where gcore gave up on a segment (the first piece it could not
    read), copies the segment's readable pages from there on into the
    core; returns how many pages it copied."""
    start = 0
    while start < size:  # the pieces gcore read, as it did
        length = min(GCORE_PIECE, size - start)
        if read_or_none(inferior, address + start, length) is None:
            break
        start += length
    copied = 0
    for at in range(start, size, page):
        data = read_or_none(inferior, address + at, min(page, size - at))
        if data is not None:
            core.seek(offset + at)
            core.write(data)
            copied += 1
    return copied


# A sanitizer's runtime reserves terabytes of shadow memory that gcore
# would copy into the core (zeros, until the disk is full).
SANITIZER_RUNTIMES = (("__asan_init", "AddressSanitizer"),
                      ("__tsan_init", "ThreadSanitizer"),
                      ("__msan_init", "MemorySanitizer"))


def sanitizer_runtime():
    """The name of the sanitizer the process runs with, or None."""
    for symbol, name in SANITIZER_RUNTIMES:
        try:
            gdb.parse_and_eval("&'%s'" % symbol)
            return name
        except gdb.error:
            continue
    return None


class GcoreCommand(gdb.Command):
    """Write a core file of the process that keeps its coroutines' stacks.

Usage: zar-gcore [FILE]

As gcore (FILE defaults to core.PID), then copies into the core the
memory gcore left out: the coroutine stacks behind guard pages it cannot
read. zar-bt and zar-coroutines then read the parked coroutines from the
core. A live process only, and not one built with a sanitizer (its
shadow memory would fill the disk)."""

    def __init__(self):
        super().__init__("zar-gcore", gdb.COMMAND_FILES, gdb.COMPLETE_FILENAME)

    def invoke(self, argument, from_tty):
        inferior = gdb.selected_inferior()
        connection = inferior.connection
        if inferior.pid == 0 or connection is None:
            raise gdb.GdbError("zar-gcore: no process")
        if connection.type == "core":
            raise gdb.GdbError("zar-gcore: this is a core file, not a live "
                               "process")
        sanitizer = sanitizer_runtime()
        if sanitizer is not None:
            raise gdb.GdbError(
                "zar-gcore: the process runs with %s, whose shadow memory "
                "(terabytes of address space) a core would copy; write "
                "cores of a build without sanitizers" % sanitizer)
        path = argument.strip() or "core.%d" % inferior.pid
        gdb.execute("gcore %s" % path, to_string=True)
        page = os.sysconf("SC_PAGE_SIZE")
        copied = regions = 0
        with open(path, "r+b") as core:
            for address, offset, size in core_load_segments(core):
                pages = fill_unread_pages(core, inferior, address, offset,
                                          size, page)
                copied += pages
                regions += 1 if pages else 0
        gdb.write("Saved corefile %s (with %s gcore could not copy in %s)\n" % (
            path, plural(copied, "page"), plural(regions, "mapping")))


gdb.printing.register_pretty_printer(None, ZendAsyncRefPrinters(), replace=True)
CoroutinesCommand()
AsyncCommand()
EventsCommand()
CoroutineFunction()
BacktraceCommand()
GcoreCommand()
gdb.unwinder.register_unwinder(None, FiberUnwinder(), replace=True)
