/*
 * zend-async-ref: what every exported function pointer of the ABI holds
 * before an extension registers (the "not registered" behaviour).
 *
 * Each stub is upstream's default: spawn and friends throw Error "Async API
 * is not enabled", the context factory "Context API is not enabled",
 * socket listening "Socket listening API is not enabled"; suspend returns
 * false silently; launch/shutdown/engine_shutdown return true; microtasks
 * are accepted and dropped; get_class_ce maps the async exception types to
 * the engine's Exception/Error. Everything else defaults to NULL (see
 * pointer_tables.h).
 */
#ifndef ZAR_ABI_DEFAULT_STUBS_H
#define ZAR_ABI_DEFAULT_STUBS_H

#include "zend_async_API.h"

zend_coroutine_t *zar_spawn_stub(zend_async_scope_t *scope,
                                 zend_object *scope_provider, int32_t priority);
bool zar_suspend_stub(bool from_main, bool is_bailout);
bool zar_enqueue_coroutine_stub(zend_coroutine_t *coroutine);
bool zar_spawn_and_throw_stub(zend_object *exception, zend_async_scope_t *scope,
                              int32_t priority);
bool zar_shutdown_stub(void);
bool zar_engine_shutdown_stub(void);
bool zar_scheduler_launch_stub(void);
zend_array *zar_get_coroutines_stub(void);
bool zar_add_microtask_stub(zend_async_microtask_t *microtask);
zend_array *zar_get_awaiting_info_stub(zend_coroutine_t *coroutine);
zend_class_entry *zar_get_class_ce_default(zend_async_class type);
zend_future_t *zar_new_future_stub(bool thread_safe, size_t extra_size);
zend_async_channel_t *zar_new_channel_stub(size_t buffer_size, bool resizable,
                                           bool thread_safe, size_t extra_size);
zend_object *zar_new_future_obj_stub(zend_future_t *future);
zend_object *zar_new_channel_obj_stub(zend_async_channel_t *channel);
zend_async_group_t *zar_new_group_stub(uint32_t concurrency,
                                       uint32_t queue_limit,
                                       zend_object *scope);
zend_async_context_t *zar_new_context_stub(void);
void zar_call_on_main_stack_default(void (*fn)(void *), void *arg);
zend_async_pool_t *zar_new_pool_stub(
    zend_async_pool_factory_fn factory,
    zend_async_pool_destructor_fn destructor,
    zend_async_pool_healthcheck_fn healthcheck,
    zend_async_pool_before_acquire_fn before_acquire,
    zend_async_pool_before_release_fn before_release, uint32_t min_size,
    uint32_t max_size, uint32_t healthcheck_interval_ms, size_t extra_size);
zend_object *zar_new_pool_obj_stub(zend_async_pool_t *pool);
bool zar_pool_acquire_stub(zend_async_pool_t *pool, zval *result,
                           zend_long timeout_ms);
bool zar_pool_try_acquire_stub(zend_async_pool_t *pool, zval *result);
void zar_pool_release_stub(zend_async_pool_t *pool, zval *resource);
void zar_pool_close_stub(zend_async_pool_t *pool);
zend_async_listen_event_t *zar_socket_listen_stub(const char *host, int port,
                                                  int backlog, uint32_t flags,
                                                  size_t extra_size);
zend_async_listen_event_t *zar_socket_listen_fd_stub(zend_socket_t fd,
                                                     int backlog,
                                                     uint32_t flags,
                                                     size_t extra_size);

#endif /* ZAR_ABI_DEFAULT_STUBS_H */
