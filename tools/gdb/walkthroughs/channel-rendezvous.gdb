# A channel's rendezvous, stop by stop, on zend-async-trace's
# channel-rendezvous scenario (an unbuffered channel: R1 and R2 receive one
# value each, S sends 1 and 2, then closes the channel). docs/debugging.md
# runs it:
#
#   cmake --preset debug && cmake --build --preset walkthrough
#   gdb -q -x tools/gdb/zend_async_ref.py -x tools/gdb/walkthroughs/channel-rendezvous.gdb \
#       build-debug/tools/trace/zend-async-trace
#
# A receive that finds no value parks in the channel's receivers' queue; a
# send hands its value straight to the oldest receiver, reserving it for
# that receiver (nobody else may take it) and queueing it; the receiver
# runs and takes it, which frees the slot for the next send. The trace
# goes to stdout with the stops, so each stop follows the event the trace
# just told. Breakpoints name functions whole (qualified, quoted): a bare
# "Take" or "Resume" matches several functions. `print *channel` lists the
# receivers and senders oldest first, `(reserved)` for one woken with a
# value (or a slot) kept for it.
set pagination off
set confirm off
set width 0
# Addresses change from run to run; the printers name what they point to.
set print address off
# Stepping never enters the tracer.
skip -rfu ^zend_async_ref_trace
skip -rfu ^zar::trace::

# A receive with no value to take (or a send with no slot) parks its
# coroutine at the back of the channel's queue (receiving: the receivers').
break 'zar::core::WaitInQueue'
commands
  silent
  echo \n== stop: a coroutine parks in the channel's queue (WaitInQueue)\n
  print receiving
  print *channel
  continue
end

# A send put its value in the slot: the oldest receiver without a
# reservation is given it and woken (queued, not yet running).
break 'zar::core::WakeReceiver'
commands
  silent
  echo \n== stop: a send hands its value to the oldest receiver (WakeReceiver)\n
  print *channel
  zar-coroutines
  continue
end

# The woken receiver runs again: its receive takes the value its
# reservation kept, oldest first, and pays the freed slot's debts (a sender
# waiting for the slot is woken).
break 'zar::core::Take'
commands
  silent
  echo \n== stop: the receiver runs and takes the value (Take)\n
  print *channel
  continue
end

run channel-rendezvous
