/*
 * zend-async-ref: every exported function pointer of the ABI, one X-macro
 * table per registration group: X(type, name, process-start default).
 *
 * The tables are the single description from which registry.c defines the
 * pointers, zend_async_ref_reset_registry() restores them and each register
 * function takes and installs its group's (so a registered group's table
 * is in its register function's parameter order, which the compiler holds
 * against the header's prototype).
 */
#ifndef ZAR_ABI_POINTER_TABLES_H
#define ZAR_ABI_POINTER_TABLES_H

#include "default_stubs.h"
#include "waker_internal.h"

#define ZAR_SCHEDULER_POINTERS(X)                                              \
  X(zend_async_scheduler_launch_t, zend_async_scheduler_launch_fn,             \
    zar_scheduler_launch_stub)                                                 \
  X(zend_async_new_coroutine_t, zend_async_new_coroutine_fn, NULL)             \
  X(zend_async_new_scope_t, zend_async_new_scope_fn, NULL)                     \
  X(zend_async_new_context_t, zend_async_new_context_fn, zar_new_context_stub) \
  X(zend_async_spawn_t, zend_async_spawn_fn, zar_spawn_stub)                   \
  X(zend_async_suspend_t, zend_async_suspend_fn, zar_suspend_stub)             \
  X(zend_async_enqueue_coroutine_t, zend_async_enqueue_coroutine_fn,           \
    zar_enqueue_coroutine_stub)                                                \
  X(zend_async_resume_t, zend_async_resume_fn, NULL)                           \
  X(zend_async_cancel_t, zend_async_cancel_fn, NULL)                           \
  X(zend_async_scope_await_after_cancellation_t,                               \
    zend_async_scope_await_after_cancellation_fn, NULL)                        \
  X(zend_async_spawn_and_throw_t, zend_async_spawn_and_throw_fn,               \
    zar_spawn_and_throw_stub)                                                  \
  X(zend_async_shutdown_t, zend_async_shutdown_fn, zar_shutdown_stub)          \
  X(zend_async_waker_new_t, zend_async_waker_new_fn, zar_waker_new_default)    \
  X(zend_async_waker_destroy_t, zend_async_waker_destroy_fn,                   \
    zar_waker_destroy_default)                                                 \
  X(zend_async_get_coroutines_t, zend_async_get_coroutines_fn,                 \
    zar_get_coroutines_stub)                                                   \
  X(zend_async_add_microtask_t, zend_async_add_microtask_fn,                   \
    zar_add_microtask_stub)                                                    \
  X(zend_async_get_awaiting_info_t, zend_async_get_awaiting_info_fn,           \
    zar_get_awaiting_info_stub)                                                \
  X(zend_async_get_class_ce_t, zend_async_get_class_ce_fn,                     \
    zar_get_class_ce_default)                                                  \
  X(zend_async_new_iterator_t, zend_async_new_iterator_fn, NULL)               \
  X(zend_async_new_future_t, zend_async_new_future_fn, zar_new_future_stub)    \
  X(zend_async_new_channel_t, zend_async_new_channel_fn, zar_new_channel_stub) \
  X(zend_async_new_future_obj_t, zend_async_new_future_obj_fn,                 \
    zar_new_future_obj_stub)                                                   \
  X(zend_async_new_channel_obj_t, zend_async_new_channel_obj_fn,               \
    zar_new_channel_obj_stub)                                                  \
  X(zend_async_new_group_t, zend_async_new_group_fn, zar_new_group_stub)       \
  X(zend_async_engine_shutdown_t, zend_async_engine_shutdown_fn,               \
    zar_engine_shutdown_stub)                                                  \
  X(zend_async_thread_snapshot_create_t, zend_async_thread_snapshot_create_fn, \
    NULL)                                                                      \
  X(zend_async_thread_snapshot_destroy_t,                                      \
    zend_async_thread_snapshot_destroy_fn, NULL)                               \
  X(zend_async_thread_run_t, zend_async_thread_run_fn, NULL)                   \
  X(zend_async_thread_load_result_t, zend_async_thread_load_result_fn, NULL)

/* Set directly by the implementation, not through a register function. */
#define ZAR_UNREGISTERED_POINTERS(X)                                   \
  X(zend_async_call_on_main_stack_t, zend_async_call_on_main_stack_fn, \
    zar_call_on_main_stack_default)                                    \
  X(zend_async_coroutine_get_execute_data_t,                           \
    zend_async_coroutine_get_execute_data_fn, NULL)                    \
  X(zend_async_sigaction_t, zend_async_sigaction_fn, NULL)             \
  X(zend_async_reactor_tick_t, zend_async_reactor_tick_fn, NULL)       \
  X(zend_async_thread_release_transferred_zvals_t,                     \
    zend_async_thread_release_transferred_zvals_fn, NULL)

/* Set by zend_async_fork_register(). */
#define ZAR_FORK_POINTERS(X)                                   \
  X(zend_async_before_fork_t, zend_async_before_fork_fn, NULL) \
  X(zend_async_after_fork_child_t, zend_async_after_fork_child_fn, NULL)

#define ZAR_REACTOR_POINTERS(X)                                              \
  X(zend_async_reactor_startup_t, zend_async_reactor_startup_fn, NULL)       \
  X(zend_async_reactor_shutdown_t, zend_async_reactor_shutdown_fn, NULL)     \
  X(zend_async_reactor_execute_t, zend_async_reactor_execute_fn, NULL)       \
  X(zend_async_reactor_loop_alive_t, zend_async_reactor_loop_alive_fn, NULL) \
  X(zend_async_reactor_quiesce_t, zend_async_reactor_quiesce_fn, NULL)       \
  X(zend_async_new_socket_event_t, zend_async_new_socket_event_fn, NULL)     \
  X(zend_async_new_poll_event_t, zend_async_new_poll_event_fn, NULL)         \
  X(zend_async_new_poll_proxy_event_t, zend_async_new_poll_proxy_event_fn,   \
    NULL)                                                                    \
  X(zend_async_new_timer_event_t, zend_async_new_timer_event_fn, NULL)       \
  X(zend_async_timer_rearm_t, zend_async_timer_rearm_fn, NULL)               \
  X(zend_async_new_signal_event_t, zend_async_new_signal_event_fn, NULL)     \
  X(zend_async_new_process_event_t, zend_async_new_process_event_fn, NULL)   \
  X(zend_async_new_thread_event_t, zend_async_new_thread_event_fn, NULL)     \
  X(zend_async_new_filesystem_event_t, zend_async_new_filesystem_event_fn,   \
    NULL)                                                                    \
  X(zend_async_getnameinfo_t, zend_async_getnameinfo_fn, NULL)               \
  X(zend_async_getaddrinfo_t, zend_async_getaddrinfo_fn, NULL)               \
  X(zend_async_freeaddrinfo_t, zend_async_freeaddrinfo_fn, NULL)             \
  X(zend_async_new_exec_event_t, zend_async_new_exec_event_fn, NULL)         \
  X(zend_async_exec_t, zend_async_exec_fn, NULL)                             \
  X(zend_async_new_trigger_event_t, zend_async_new_trigger_event_fn, NULL)   \
  X(zend_async_available_parallelism_t, zend_async_available_parallelism_fn, \
    NULL)                                                                    \
  X(zend_async_now_t, zend_async_now_fn, NULL)

#define ZAR_THREAD_POOL_POINTERS(X)                                        \
  X(zend_async_new_task_t, zend_async_new_task_fn, NULL)                   \
  X(zend_async_queue_task_t, zend_async_queue_task_fn, NULL)               \
  X(zend_async_new_thread_pool_t, zend_async_new_thread_pool_fn, NULL)     \
  X(zend_async_start_thread_t, zend_async_start_thread_fn, NULL)           \
  X(zend_async_thread_transfer_zval_t, zend_async_thread_transfer_zval_fn, \
    NULL)                                                                  \
  X(zend_async_thread_load_zval_t, zend_async_thread_load_zval_fn, NULL)   \
  X(zend_async_thread_transfer_zval_toplevel_t,                            \
    zend_async_thread_transfer_zval_toplevel_fn, NULL)                     \
  X(zend_async_thread_load_zval_toplevel_t,                                \
    zend_async_thread_load_zval_toplevel_fn, NULL)                         \
  X(zend_async_thread_release_transferred_zval_t,                          \
    zend_async_thread_release_transferred_zval_fn, NULL)                   \
  X(zend_async_thread_xlat_put_t, zend_async_thread_xlat_put_fn, NULL)     \
  X(zend_async_thread_defer_release_t, zend_async_thread_defer_release_fn, NULL)

#define ZAR_POOL_POINTERS(X)                                          \
  X(zend_async_new_pool_t, zend_async_new_pool_fn, zar_new_pool_stub) \
  X(zend_async_new_pool_obj_t, zend_async_new_pool_obj_fn,            \
    zar_new_pool_obj_stub)                                            \
  X(zend_async_pool_acquire_t, zend_async_pool_acquire_fn,            \
    zar_pool_acquire_stub)                                            \
  X(zend_async_pool_try_acquire_t, zend_async_pool_try_acquire_fn,    \
    zar_pool_try_acquire_stub)                                        \
  X(zend_async_pool_release_t, zend_async_pool_release_fn,            \
    zar_pool_release_stub)                                            \
  X(zend_async_pool_close_t, zend_async_pool_close_fn, zar_pool_close_stub)

#define ZAR_SOCKET_LISTENING_POINTERS(X)                           \
  X(zend_async_socket_listen_t, zend_async_socket_listen_fn,       \
    zar_socket_listen_stub)                                        \
  X(zend_async_socket_listen_fd_t, zend_async_socket_listen_fd_fn, \
    zar_socket_listen_fd_stub)

#define ZAR_IO_POINTERS(X)                                                   \
  X(zend_async_io_create_t, zend_async_io_create_fn, NULL)                   \
  X(zend_async_io_read_t, zend_async_io_read_fn, NULL)                       \
  X(zend_async_io_write_t, zend_async_io_write_fn, NULL)                     \
  X(zend_async_io_writev_t, zend_async_io_writev_fn, NULL)                   \
  X(zend_async_io_close_t, zend_async_io_close_fn, NULL)                     \
  X(zend_async_io_await_t, zend_async_io_await_fn, NULL)                     \
  X(zend_async_io_flush_t, zend_async_io_flush_fn, NULL)                     \
  X(zend_async_io_stat_t, zend_async_io_stat_fn, NULL)                       \
  X(zend_async_io_seek_t, zend_async_io_seek_fn, NULL)                       \
  X(zend_async_io_sendfile_t, zend_async_io_sendfile_fn, NULL)               \
  X(zend_async_fs_open_t, zend_async_fs_open_fn, NULL)                       \
  X(zend_async_udp_sendto_t, zend_async_udp_sendto_fn, NULL)                 \
  X(zend_async_udp_try_send_t, zend_async_udp_try_send_fn, NULL)             \
  X(zend_async_udp_recvfrom_t, zend_async_udp_recvfrom_fn, NULL)             \
  X(zend_async_io_set_option_t, zend_async_io_set_option_fn, NULL)           \
  X(zend_async_udp_set_membership_t, zend_async_udp_set_membership_fn, NULL) \
  X(zend_async_udp_bind_t, zend_async_udp_bind_fn, NULL)

#define ZAR_ALL_POINTERS(X)        \
  ZAR_SCHEDULER_POINTERS(X)        \
  ZAR_UNREGISTERED_POINTERS(X)     \
  ZAR_FORK_POINTERS(X)             \
  ZAR_REACTOR_POINTERS(X)          \
  ZAR_THREAD_POOL_POINTERS(X)      \
  ZAR_POOL_POINTERS(X)             \
  ZAR_SOCKET_LISTENING_POINTERS(X) \
  ZAR_IO_POINTERS(X)

#endif /* ZAR_ABI_POINTER_TABLES_H */
