/*
 * zend-async-ref: the x86-64 layout of every public struct of
 * Zend/zend_async_API.h, pinned at compile time.
 *
 * Each number was computed by hand from the field order and the System V
 * x86-64 alignment rules (pointers and 64-bit integers 8, uint32_t/int/enums
 * 4, bool/uint8_t 1), with the engine types at PHP's sizes: zval 16,
 * HashTable 56, zend_fcall_info 64, zend_fcall_info_cache 40,
 * zend_refcounted_h 8. A change to the header that moves any field breaks
 * the build here.
 *
 * Usable from C11 and C++ (static_assert comes from <assert.h> in C11).
 * Included by one C file of abi/src and by a C++ test, so both languages'
 * views of the structs are checked.
 */
#ifndef ZAR_ABI_SRC_LAYOUT_ASSERT_H
#define ZAR_ABI_SRC_LAYOUT_ASSERT_H

#include <assert.h>
#include <stddef.h>

#include "zend_async_API.h"

#if defined(__x86_64__) && defined(__LP64__)

#define ZAR_ASSERT_SIZE(type, size) \
  static_assert(sizeof(type) == (size), "sizeof(" #type ") changed")
#define ZAR_ASSERT_OFFSET(type, field, offset)     \
  static_assert(offsetof(type, field) == (offset), \
                "offsetof(" #type ", " #field ") changed")

/* --- Engine types the ABI embeds by value ---------------------------- */
ZAR_ASSERT_SIZE(zval, 16);
ZAR_ASSERT_SIZE(HashTable, 56);
ZAR_ASSERT_SIZE(zend_fcall_info, 64);
ZAR_ASSERT_SIZE(zend_fcall_info_cache, 40);
ZAR_ASSERT_SIZE(zend_refcounted_h, 8);

/* --- Callbacks vector and the event base ------------------------------ */
ZAR_ASSERT_SIZE(zend_async_callbacks_vector_t, 24);
ZAR_ASSERT_OFFSET(zend_async_callbacks_vector_t, length, 0);
ZAR_ASSERT_OFFSET(zend_async_callbacks_vector_t, capacity, 4);
ZAR_ASSERT_OFFSET(zend_async_callbacks_vector_t, data, 8);
ZAR_ASSERT_OFFSET(zend_async_callbacks_vector_t, current_iterator, 16);

ZAR_ASSERT_SIZE(zend_async_event_t, 104);
ZAR_ASSERT_OFFSET(zend_async_event_t, flags, 0);
ZAR_ASSERT_OFFSET(zend_async_event_t, extra_offset, 4);
ZAR_ASSERT_OFFSET(zend_async_event_t, ref_count, 8);
ZAR_ASSERT_OFFSET(zend_async_event_t, zend_object_offset, 8);
ZAR_ASSERT_OFFSET(zend_async_event_t, loop_ref_count, 12);
ZAR_ASSERT_OFFSET(zend_async_event_t, callbacks, 16);
ZAR_ASSERT_OFFSET(zend_async_event_t, add_callback, 40);
ZAR_ASSERT_OFFSET(zend_async_event_t, del_callback, 48);
ZAR_ASSERT_OFFSET(zend_async_event_t, start, 56);
ZAR_ASSERT_OFFSET(zend_async_event_t, stop, 64);
ZAR_ASSERT_OFFSET(zend_async_event_t, replay, 72);
ZAR_ASSERT_OFFSET(zend_async_event_t, dispose, 80);
ZAR_ASSERT_OFFSET(zend_async_event_t, info, 88);
ZAR_ASSERT_OFFSET(zend_async_event_t, notify_handler, 96);

ZAR_ASSERT_SIZE(zend_async_event_ref_t, 16);
ZAR_ASSERT_OFFSET(zend_async_event_ref_t, flags, 0);
ZAR_ASSERT_OFFSET(zend_async_event_ref_t, zend_object_offset, 4);
ZAR_ASSERT_OFFSET(zend_async_event_ref_t, event, 8);

/* --- Callbacks ---------------------------------------------------------- */
ZAR_ASSERT_SIZE(zend_async_event_callback_t, 24);
ZAR_ASSERT_OFFSET(zend_async_event_callback_t, ref_count, 0);
ZAR_ASSERT_OFFSET(zend_async_event_callback_t, callback, 8);
ZAR_ASSERT_OFFSET(zend_async_event_callback_t, dispose, 16);

ZAR_ASSERT_SIZE(zend_coroutine_event_callback_t, 40);
ZAR_ASSERT_OFFSET(zend_coroutine_event_callback_t, base, 0);
ZAR_ASSERT_OFFSET(zend_coroutine_event_callback_t, coroutine, 24);
ZAR_ASSERT_OFFSET(zend_coroutine_event_callback_t, event, 32);

/* --- Waker -------------------------------------------------------------- */
/* C: data[] is a flexible array and adds nothing to sizeof; C++: data[1]. */
#ifdef __cplusplus
ZAR_ASSERT_SIZE(zend_async_waker_trigger_t, 24);
#else
ZAR_ASSERT_SIZE(zend_async_waker_trigger_t, 16);
#endif
ZAR_ASSERT_OFFSET(zend_async_waker_trigger_t, length, 0);
ZAR_ASSERT_OFFSET(zend_async_waker_trigger_t, capacity, 4);
ZAR_ASSERT_OFFSET(zend_async_waker_trigger_t, event, 8);
ZAR_ASSERT_OFFSET(zend_async_waker_trigger_t, data, 16);

ZAR_ASSERT_SIZE(zend_async_waker_inline_trigger_t, 24);
ZAR_ASSERT_OFFSET(zend_async_waker_inline_trigger_t, length, 0);
ZAR_ASSERT_OFFSET(zend_async_waker_inline_trigger_t, capacity, 4);
ZAR_ASSERT_OFFSET(zend_async_waker_inline_trigger_t, event, 8);
ZAR_ASSERT_OFFSET(zend_async_waker_inline_trigger_t, data, 16);

/* status 0, events_stopped (a bit of the byte at 4), events 8..64,
 * triggered_events 64, result 72..88, error 88, filename 96, lineno 104
 * (+4 padding), dtor 112, inline_triggers 120..168 (2 x 24),
 * inline_callbacks 168..248 (2 x 40). */
ZAR_ASSERT_SIZE(zend_async_waker_t, 248);
ZAR_ASSERT_OFFSET(zend_async_waker_t, status, 0);
ZAR_ASSERT_OFFSET(zend_async_waker_t, events, 8);
ZAR_ASSERT_OFFSET(zend_async_waker_t, triggered_events, 64);
ZAR_ASSERT_OFFSET(zend_async_waker_t, result, 72);
ZAR_ASSERT_OFFSET(zend_async_waker_t, error, 88);
ZAR_ASSERT_OFFSET(zend_async_waker_t, filename, 96);
ZAR_ASSERT_OFFSET(zend_async_waker_t, lineno, 104);
ZAR_ASSERT_OFFSET(zend_async_waker_t, dtor, 112);
ZAR_ASSERT_OFFSET(zend_async_waker_t, inline_triggers, 120);
ZAR_ASSERT_OFFSET(zend_async_waker_t, inline_callbacks, 168);

/* --- Switch handlers and microtasks ------------------------------------- */
ZAR_ASSERT_SIZE(zend_coroutine_switch_handler_t, 8);
ZAR_ASSERT_SIZE(zend_coroutine_switch_handlers_vector_t, 24);
ZAR_ASSERT_OFFSET(zend_coroutine_switch_handlers_vector_t, length, 0);
ZAR_ASSERT_OFFSET(zend_coroutine_switch_handlers_vector_t, capacity, 4);
ZAR_ASSERT_OFFSET(zend_coroutine_switch_handlers_vector_t, data, 8);
ZAR_ASSERT_OFFSET(zend_coroutine_switch_handlers_vector_t, in_execution, 16);

ZAR_ASSERT_SIZE(zend_async_microtask_t, 24);
ZAR_ASSERT_OFFSET(zend_async_microtask_t, handler, 0);
ZAR_ASSERT_OFFSET(zend_async_microtask_t, dtor, 8);
ZAR_ASSERT_OFFSET(zend_async_microtask_t, is_cancelled, 16);
ZAR_ASSERT_OFFSET(zend_async_microtask_t, ref_count, 20);

/* --- Coroutine ---------------------------------------------------------- */
ZAR_ASSERT_SIZE(zend_fcall_t, 104);
ZAR_ASSERT_OFFSET(zend_fcall_t, fci, 0);
ZAR_ASSERT_OFFSET(zend_fcall_t, fci_cache, 64);

ZAR_ASSERT_SIZE(zend_coroutine_t, 216);
ZAR_ASSERT_OFFSET(zend_coroutine_t, event, 0);
ZAR_ASSERT_OFFSET(zend_coroutine_t, fcall, 104);
ZAR_ASSERT_OFFSET(zend_coroutine_t, internal_entry, 112);
ZAR_ASSERT_OFFSET(zend_coroutine_t, extended_data, 120);
ZAR_ASSERT_OFFSET(zend_coroutine_t, waker, 128);
ZAR_ASSERT_OFFSET(zend_coroutine_t, scope, 136);
ZAR_ASSERT_OFFSET(zend_coroutine_t, result, 144);
ZAR_ASSERT_OFFSET(zend_coroutine_t, exception, 160);
ZAR_ASSERT_OFFSET(zend_coroutine_t, context, 168);
ZAR_ASSERT_OFFSET(zend_coroutine_t, internal_context, 176);
ZAR_ASSERT_OFFSET(zend_coroutine_t, filename, 184);
ZAR_ASSERT_OFFSET(zend_coroutine_t, lineno, 192);
ZAR_ASSERT_OFFSET(zend_coroutine_t, extended_dispose, 200);
ZAR_ASSERT_OFFSET(zend_coroutine_t, switch_handlers, 208);

/* --- Scope and context -------------------------------------------------- */
ZAR_ASSERT_SIZE(zend_async_scopes_vector_t, 16);
ZAR_ASSERT_SIZE(zend_async_scope_t, 192);
ZAR_ASSERT_OFFSET(zend_async_scope_t, event, 0);
ZAR_ASSERT_OFFSET(zend_async_scope_t, scope_object, 104);
ZAR_ASSERT_OFFSET(zend_async_scope_t, scopes, 112);
ZAR_ASSERT_OFFSET(zend_async_scope_t, parent_scope, 128);
ZAR_ASSERT_OFFSET(zend_async_scope_t, request_scope, 136);
ZAR_ASSERT_OFFSET(zend_async_scope_t, context, 144);
ZAR_ASSERT_OFFSET(zend_async_scope_t, before_coroutine_enqueue, 152);
ZAR_ASSERT_OFFSET(zend_async_scope_t, after_coroutine_enqueue, 160);
ZAR_ASSERT_OFFSET(zend_async_scope_t, can_be_disposed, 168);
ZAR_ASSERT_OFFSET(zend_async_scope_t, try_to_dispose, 176);
ZAR_ASSERT_OFFSET(zend_async_scope_t, catch_or_cancel, 184);

ZAR_ASSERT_SIZE(zend_async_context_t, 40);
ZAR_ASSERT_OFFSET(zend_async_context_t, flags, 0);
ZAR_ASSERT_OFFSET(zend_async_context_t, offset, 4);
ZAR_ASSERT_OFFSET(zend_async_context_t, find, 8);
ZAR_ASSERT_OFFSET(zend_async_context_t, set, 16);
ZAR_ASSERT_OFFSET(zend_async_context_t, unset, 24);
ZAR_ASSERT_OFFSET(zend_async_context_t, dispose, 32);

/* --- Reactor events ----------------------------------------------------- */
ZAR_ASSERT_SIZE(zend_async_timer_event_t, 112);
ZAR_ASSERT_OFFSET(zend_async_timer_event_t, base, 0);
ZAR_ASSERT_OFFSET(zend_async_timer_event_t, timeout, 104);
ZAR_ASSERT_OFFSET(zend_async_timer_event_t, is_periodic, 108);

ZAR_ASSERT_SIZE(zend_async_poll_event_t, 120);
ZAR_ASSERT_OFFSET(zend_async_poll_event_t, is_socket, 104);
ZAR_ASSERT_OFFSET(zend_async_poll_event_t, file, 108);
ZAR_ASSERT_OFFSET(zend_async_poll_event_t, socket, 108);
ZAR_ASSERT_OFFSET(zend_async_poll_event_t, events, 112);
ZAR_ASSERT_OFFSET(zend_async_poll_event_t, triggered_events, 116);

ZAR_ASSERT_SIZE(zend_async_poll_proxy_t, 120);
ZAR_ASSERT_OFFSET(zend_async_poll_proxy_t, poll_event, 104);
ZAR_ASSERT_OFFSET(zend_async_poll_proxy_t, events, 112);
ZAR_ASSERT_OFFSET(zend_async_poll_proxy_t, triggered_events, 116);

ZAR_ASSERT_SIZE(zend_async_signal_event_t, 112);
ZAR_ASSERT_OFFSET(zend_async_signal_event_t, signal, 104);

ZAR_ASSERT_SIZE(zend_async_process_event_t, 120);
ZAR_ASSERT_OFFSET(zend_async_process_event_t, process, 104);
ZAR_ASSERT_OFFSET(zend_async_process_event_t, exit_code, 112);

ZAR_ASSERT_SIZE(zend_async_trigger_event_t, 112);
ZAR_ASSERT_OFFSET(zend_async_trigger_event_t, trigger, 104);

ZAR_ASSERT_SIZE(zend_async_task_t, 120);
ZAR_ASSERT_OFFSET(zend_async_task_t, run, 104);
ZAR_ASSERT_OFFSET(zend_async_task_t, data, 112);

/* --- Futures, channels, groups, pools ----------------------------------- */
ZAR_ASSERT_SIZE(zend_future_t, 184);
ZAR_ASSERT_OFFSET(zend_future_t, event, 0);
ZAR_ASSERT_OFFSET(zend_future_t, result, 104);
ZAR_ASSERT_OFFSET(zend_future_t, exception, 120);
ZAR_ASSERT_OFFSET(zend_future_t, lineno, 128);
ZAR_ASSERT_OFFSET(zend_future_t, completed_lineno, 132);
ZAR_ASSERT_OFFSET(zend_future_t, filename, 136);
ZAR_ASSERT_OFFSET(zend_future_t, completed_filename, 144);
ZAR_ASSERT_OFFSET(zend_future_t, resolve, 152);
ZAR_ASSERT_OFFSET(zend_future_t, resolve_callbacks, 160);

ZAR_ASSERT_SIZE(zend_async_channel_t, 128);
ZAR_ASSERT_OFFSET(zend_async_channel_t, send, 104);
ZAR_ASSERT_OFFSET(zend_async_channel_t, receive, 112);
ZAR_ASSERT_OFFSET(zend_async_channel_t, close, 120);

ZAR_ASSERT_SIZE(zend_async_group_t, 104);

ZAR_ASSERT_SIZE(zend_async_circuit_breaker_strategy_t, 32);
ZAR_ASSERT_OFFSET(zend_async_circuit_breaker_strategy_t, report_success, 0);
ZAR_ASSERT_OFFSET(zend_async_circuit_breaker_strategy_t, report_failure, 8);
ZAR_ASSERT_OFFSET(zend_async_circuit_breaker_strategy_t, should_recover, 16);
ZAR_ASSERT_OFFSET(zend_async_circuit_breaker_strategy_t, ctx, 24);

ZAR_ASSERT_SIZE(zend_async_pool_t, 184);
ZAR_ASSERT_OFFSET(zend_async_pool_t, event, 0);
ZAR_ASSERT_OFFSET(zend_async_pool_t, handler_flags, 104);
ZAR_ASSERT_OFFSET(zend_async_pool_t, circuit_state, 108);
ZAR_ASSERT_OFFSET(zend_async_pool_t, min_size, 112);
ZAR_ASSERT_OFFSET(zend_async_pool_t, max_size, 116);
ZAR_ASSERT_OFFSET(zend_async_pool_t, wrapper, 120);
ZAR_ASSERT_OFFSET(zend_async_pool_t, factory, 128);
ZAR_ASSERT_OFFSET(zend_async_pool_t, destructor, 136);
ZAR_ASSERT_OFFSET(zend_async_pool_t, healthcheck, 144);
ZAR_ASSERT_OFFSET(zend_async_pool_t, before_acquire, 152);
ZAR_ASSERT_OFFSET(zend_async_pool_t, before_release, 160);
ZAR_ASSERT_OFFSET(zend_async_pool_t, strategy, 168);
ZAR_ASSERT_OFFSET(zend_async_pool_t, user_data, 176);

/* --- Globals ------------------------------------------------------------ */
ZAR_ASSERT_SIZE(zend_async_globals_t, 96);
ZAR_ASSERT_OFFSET(zend_async_globals_t, state, 0);
ZAR_ASSERT_OFFSET(zend_async_globals_t, heartbeat, 4);
ZAR_ASSERT_OFFSET(zend_async_globals_t, in_scheduler_context, 5);
ZAR_ASSERT_OFFSET(zend_async_globals_t, graceful_shutdown, 6);
ZAR_ASSERT_OFFSET(zend_async_globals_t, active_coroutine_count, 8);
ZAR_ASSERT_OFFSET(zend_async_globals_t, active_event_count, 12);
ZAR_ASSERT_OFFSET(zend_async_globals_t, coroutine, 16);
ZAR_ASSERT_OFFSET(zend_async_globals_t, main_scope, 24);
ZAR_ASSERT_OFFSET(zend_async_globals_t, scheduler, 32);
ZAR_ASSERT_OFFSET(zend_async_globals_t, main_coroutine, 40);
ZAR_ASSERT_OFFSET(zend_async_globals_t, exit_exception, 48);
ZAR_ASSERT_OFFSET(zend_async_globals_t, heartbeat_handler, 56);
ZAR_ASSERT_OFFSET(zend_async_globals_t, acting_coroutine, 64);
ZAR_ASSERT_OFFSET(zend_async_globals_t, main_coroutine_start_handlers, 72);

#undef ZAR_ASSERT_SIZE
#undef ZAR_ASSERT_OFFSET

#endif /* x86-64 */

#endif /* ZAR_ABI_SRC_LAYOUT_ASSERT_H */
