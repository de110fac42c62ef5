# The pool's hand-off, stop by stop, on zend-async-trace's fifo-handoff
# scenario (a pool of max=1: A holds the place, B and C queue up, each
# release hands the place to the oldest waiter). docs/debugging.md runs it:
#
#   cmake --preset debug && cmake --build --preset walkthrough
#   gdb -q -x tools/gdb/zend_async_ref.py -x tools/gdb/walkthroughs/pool-handoff.gdb \
#       build-debug/tools/trace/zend-async-trace
#
# The trace goes to stdout with the stops, so each stop follows the event
# the trace just told. Breakpoints name functions whole (qualified, quoted):
# a bare "Resume" or "Release" matches several functions.
set pagination off
set confirm off
set width 0
# Stepping never enters the tracer.
skip -rfu ^zend_async_ref_trace
skip -rfu ^zar::trace::

# An acquire that finds no place parks its coroutine in the pool's queue.
break 'zar::core::(anonymous namespace)::WaitForResource'
commands
  silent
  echo \n== stop: an acquire finds no place and parks (WaitForResource)\n
  print *pool
  continue
end

# A release pushes the resource idle and wakes the oldest waiter without a
# reservation, giving it one: the place is kept for it until it runs.
break 'zar::core::(anonymous namespace)::WakeWaiter'
commands
  silent
  echo \n== stop: a release wakes the oldest waiter with a reservation (WakeWaiter)\n
  print *pool
  zar-coroutines
  continue
end

# The woken waiter runs again: its acquire retries and takes the resource
# its reservation kept (TakeIdle).
break 'zar::core::(anonymous namespace)::TakeIdle'
commands
  silent
  echo \n== stop: an acquire takes an idle resource (TakeIdle)\n
  print *pool
  continue
end

run fifo-handoff
