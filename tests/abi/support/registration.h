// zend-async-ref: ABI conformance tests, support.
//
// The register functions take 2 to 31 positional pointers. Tests describe
// a registration with a designated-initialised table instead and call the
// C function from the single place below, so an argument can never land
// in the wrong position.

#ifndef ZAR_TESTS_ABI_SUPPORT_REGISTRATION_H_
#define ZAR_TESTS_ABI_SUPPORT_REGISTRATION_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::abi_testing {

struct SchedulerTable {
  zend_async_scheduler_launch_t scheduler_launch = nullptr;
  zend_async_new_coroutine_t new_coroutine = nullptr;
  zend_async_new_scope_t new_scope = nullptr;
  zend_async_new_context_t new_context = nullptr;
  zend_async_spawn_t spawn = nullptr;
  zend_async_suspend_t suspend = nullptr;
  zend_async_enqueue_coroutine_t enqueue_coroutine = nullptr;
  zend_async_resume_t resume = nullptr;
  zend_async_cancel_t cancel = nullptr;
  zend_async_scope_await_after_cancellation_t scope_await_after_cancellation =
      nullptr;
  zend_async_spawn_and_throw_t spawn_and_throw = nullptr;
  zend_async_shutdown_t shutdown = nullptr;
  zend_async_waker_new_t waker_new = nullptr;
  zend_async_waker_destroy_t waker_destroy = nullptr;
  zend_async_get_coroutines_t get_coroutines = nullptr;
  zend_async_add_microtask_t add_microtask = nullptr;
  zend_async_get_awaiting_info_t get_awaiting_info = nullptr;
  zend_async_get_class_ce_t get_class_ce = nullptr;
  zend_async_new_iterator_t new_iterator = nullptr;
  zend_async_new_future_t new_future = nullptr;
  zend_async_new_channel_t new_channel = nullptr;
  zend_async_new_future_obj_t new_future_obj = nullptr;
  zend_async_new_channel_obj_t new_channel_obj = nullptr;
  zend_async_new_group_t new_group = nullptr;
  zend_async_engine_shutdown_t engine_shutdown = nullptr;
  zend_async_thread_snapshot_create_t thread_snapshot_create = nullptr;
  zend_async_thread_snapshot_destroy_t thread_snapshot_destroy = nullptr;
  zend_async_thread_run_t thread_run = nullptr;
  zend_async_thread_load_result_t thread_load_result = nullptr;
};

inline bool RegisterScheduler(char* module, bool allow_override,
                              const SchedulerTable& t) {
  return zend_async_scheduler_register(
      module, allow_override, t.scheduler_launch, t.new_coroutine, t.new_scope,
      t.new_context, t.spawn, t.suspend, t.enqueue_coroutine, t.resume,
      t.cancel, t.scope_await_after_cancellation, t.spawn_and_throw, t.shutdown,
      t.waker_new, t.waker_destroy, t.get_coroutines, t.add_microtask,
      t.get_awaiting_info, t.get_class_ce, t.new_iterator, t.new_future,
      t.new_channel, t.new_future_obj, t.new_channel_obj, t.new_group,
      t.engine_shutdown, t.thread_snapshot_create, t.thread_snapshot_destroy,
      t.thread_run, t.thread_load_result);
}

struct ReactorTable {
  zend_async_reactor_startup_t startup = nullptr;
  zend_async_reactor_shutdown_t shutdown = nullptr;
  zend_async_reactor_execute_t execute = nullptr;
  zend_async_reactor_loop_alive_t loop_alive = nullptr;
  zend_async_reactor_quiesce_t quiesce = nullptr;
  zend_async_new_socket_event_t new_socket_event = nullptr;
  zend_async_new_poll_event_t new_poll_event = nullptr;
  zend_async_new_poll_proxy_event_t new_poll_proxy_event = nullptr;
  zend_async_new_timer_event_t new_timer_event = nullptr;
  zend_async_timer_rearm_t timer_rearm = nullptr;
  zend_async_new_signal_event_t new_signal_event = nullptr;
  zend_async_new_process_event_t new_process_event = nullptr;
  zend_async_new_thread_event_t new_thread_event = nullptr;
  zend_async_new_filesystem_event_t new_filesystem_event = nullptr;
  zend_async_getnameinfo_t getnameinfo = nullptr;
  zend_async_getaddrinfo_t getaddrinfo = nullptr;
  zend_async_freeaddrinfo_t freeaddrinfo = nullptr;
  zend_async_new_exec_event_t new_exec_event = nullptr;
  zend_async_exec_t exec = nullptr;
  zend_async_new_trigger_event_t new_trigger_event = nullptr;
  zend_async_available_parallelism_t available_parallelism = nullptr;
  zend_async_now_t now = nullptr;
};

inline bool RegisterReactor(char* module, bool allow_override,
                            const ReactorTable& t) {
  return zend_async_reactor_register(
      module, allow_override, t.startup, t.shutdown, t.execute, t.loop_alive,
      t.quiesce, t.new_socket_event, t.new_poll_event, t.new_poll_proxy_event,
      t.new_timer_event, t.timer_rearm, t.new_signal_event, t.new_process_event,
      t.new_thread_event, t.new_filesystem_event, t.getnameinfo, t.getaddrinfo,
      t.freeaddrinfo, t.new_exec_event, t.exec, t.new_trigger_event,
      t.available_parallelism, t.now);
}

struct ThreadPoolTable {
  zend_async_new_task_t new_task = nullptr;
  zend_async_queue_task_t queue_task = nullptr;
  zend_async_new_thread_pool_t new_thread_pool = nullptr;
  zend_async_start_thread_t start_thread = nullptr;
  zend_async_thread_transfer_zval_t transfer_zval = nullptr;
  zend_async_thread_load_zval_t load_zval = nullptr;
  zend_async_thread_transfer_zval_toplevel_t transfer_zval_toplevel = nullptr;
  zend_async_thread_load_zval_toplevel_t load_zval_toplevel = nullptr;
  zend_async_thread_release_transferred_zval_t release_transferred_zval =
      nullptr;
  zend_async_thread_xlat_put_t xlat_put = nullptr;
  zend_async_thread_defer_release_t defer_release = nullptr;
};

inline void RegisterThreadPool(char* module, bool allow_override,
                               const ThreadPoolTable& t) {
  zend_async_thread_pool_register(
      module, allow_override, t.new_task, t.queue_task, t.new_thread_pool,
      t.start_thread, t.transfer_zval, t.load_zval, t.transfer_zval_toplevel,
      t.load_zval_toplevel, t.release_transferred_zval, t.xlat_put,
      t.defer_release);
}

struct PoolTable {
  zend_async_new_pool_t new_pool = nullptr;
  zend_async_new_pool_obj_t new_pool_obj = nullptr;
  zend_async_pool_acquire_t acquire = nullptr;
  zend_async_pool_try_acquire_t try_acquire = nullptr;
  zend_async_pool_release_t release = nullptr;
  zend_async_pool_close_t close = nullptr;
};

inline void RegisterPoolApi(char* module, bool allow_override,
                            const PoolTable& t) {
  zend_async_pool_api_register(module, allow_override, t.new_pool,
                               t.new_pool_obj, t.acquire, t.try_acquire,
                               t.release, t.close);
}

struct IoTable {
  zend_async_io_create_t create = nullptr;
  zend_async_io_read_t read = nullptr;
  zend_async_io_write_t write = nullptr;
  zend_async_io_writev_t writev = nullptr;
  zend_async_io_close_t close = nullptr;
  zend_async_io_await_t await = nullptr;
  zend_async_io_flush_t flush = nullptr;
  zend_async_io_stat_t stat = nullptr;
  zend_async_io_seek_t seek = nullptr;
  zend_async_io_sendfile_t sendfile = nullptr;
  zend_async_fs_open_t fs_open = nullptr;
  zend_async_udp_sendto_t udp_sendto = nullptr;
  zend_async_udp_try_send_t udp_try_send = nullptr;
  zend_async_udp_recvfrom_t udp_recvfrom = nullptr;
  zend_async_io_set_option_t set_option = nullptr;
  zend_async_udp_set_membership_t udp_set_membership = nullptr;
  zend_async_udp_bind_t udp_bind = nullptr;
};

inline bool RegisterIo(char* module, bool allow_override, const IoTable& t) {
  return zend_async_io_register(module, allow_override, t.create, t.read,
                                t.write, t.writev, t.close, t.await, t.flush,
                                t.stat, t.seek, t.sendfile, t.fs_open,
                                t.udp_sendto, t.udp_try_send, t.udp_recvfrom,
                                t.set_option, t.udp_set_membership, t.udp_bind);
}

}  // namespace zar::abi_testing

#endif  // ZAR_TESTS_ABI_SUPPORT_REGISTRATION_H_
