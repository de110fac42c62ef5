# A timer's wake-up, stop by stop, on zend-async-trace's timer-wakeup
# scenario (A sleeps 1000 ms, then B sleeps 10 ms; main awaits A, then B).
# docs/debugging.md runs it:
#
#   cmake --preset debug && cmake --build --preset walkthrough
#   gdb -q -x tools/gdb/zend_async_ref.py -x tools/gdb/walkthroughs/timer-wakeup.gdb \
#       build-debug/tools/trace/zend-async-trace
#
# A sleep parks its coroutine: a waker, resume_when on a one-shot timer
# event with the resolve callback, then the suspension, which starts the
# waker's events, arming the timer. When the reactor's libuv timer fires,
# the event notifies its callbacks: the waker's resolve callback queues the
# coroutine, which runs again when the scheduler switches to it, back in
# its park. The trace goes to stdout with the stops, so each stop follows
# the event the trace just told. Breakpoints name functions whole
# (qualified, quoted) and, where the name is not unique (every reactor
# event kind has its own Arm), the file.
set pagination off
set confirm off
set width 0
# Addresses change from run to run; the printers name what they point to.
set print address off
# Stepping never enters the tracer.
skip -rfu ^zend_async_ref_trace
skip -rfu ^zar::trace::

# The suspension starts the waker's events: the timer is armed. The
# backtrace runs from the timer's Arm through the suspension to the park
# (zend_async_ref_park) and the sleep that called it.
break -source timer_event.cc -function 'zar::core::reactor::(anonymous namespace)::Arm'
commands
  silent
  echo \n== stop: a sleep parks its coroutine and arms the timer (Arm)\n
  print *event
  backtrace -frame-arguments none 9
  zar-coroutines
  continue
end

# The reactor's loop runs libuv's due timers, shortest deadline first: the
# libuv callback of the timer event (whose `data` is the event's core).
break -source timer_event.cc -function 'zar::core::reactor::(anonymous namespace)::OnTimer'
commands
  silent
  echo \n== stop: libuv fires the timer (OnTimer)\n
  print *((zar::core::reactor::EventCore *) handle->data)->event
  continue
end

# The fired event notifies its callbacks: the waker's resolve callback
# resumes the coroutine, which only queues it (trace: "resume #5"). The
# condition keeps to timers: an await's resolve runs from a coroutine's end.
break zend_async_waker_callback_resolve if $_any_caller_matches(".*::OnTimer$", 2)
commands
  silent
  echo \n== stop: the timer's waker callback resumes (queues) its coroutine (zend_async_waker_callback_resolve)\n
  print *event
  print *((zend_coroutine_event_callback_t *) callback)->coroutine
  zar-coroutines
  continue
end

# The scheduler switched to the coroutine: back in its park, after the
# suspension, its first act is to clean its waker (the timer let go).
break zend_async_waker_clean if $_any_caller_matches("^zar::testing::Delay$", 2)
commands
  silent
  echo \n== stop: the coroutine runs again, back in its park (zend_async_waker_clean)\n
  print *coroutine
  print coroutine->waker->status
  continue
end

run timer-wakeup
