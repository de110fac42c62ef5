/*
 * zend-async-ref: the ABI's "not registered" behaviour (see
 * default_stubs.h).
 */
#include "default_stubs.h"

#define ASYNC_NOT_ENABLED "Async API is not enabled"

zend_coroutine_t *zar_spawn_stub(zend_async_scope_t *scope,
                                 zend_object *scope_provider,
                                 int32_t priority) {
  (void)scope;
  (void)scope_provider;
  (void)priority;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return NULL;
}

bool zar_suspend_stub(bool from_main, bool is_bailout) {
  (void)from_main;
  (void)is_bailout;
  return false;
}

bool zar_enqueue_coroutine_stub(zend_coroutine_t *coroutine) {
  (void)coroutine;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return false;
}

bool zar_spawn_and_throw_stub(zend_object *exception, zend_async_scope_t *scope,
                              int32_t priority) {
  (void)exception;
  (void)scope;
  (void)priority;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return false;
}

bool zar_shutdown_stub(void) { return true; }

bool zar_engine_shutdown_stub(void) { return true; }

bool zar_scheduler_launch_stub(void) { return true; }

zend_array *zar_get_coroutines_stub(void) { return NULL; }

/* Accepts and drops the microtask (it is not released). */
bool zar_add_microtask_stub(zend_async_microtask_t *microtask) {
  (void)microtask;
  return true;
}

zend_array *zar_get_awaiting_info_stub(zend_coroutine_t *coroutine) {
  (void)coroutine;
  return NULL;
}

/* Without a scheduler, async exceptions map to the engine's own classes. */
zend_class_entry *zar_get_class_ce_default(zend_async_class type) {
  switch (type) {
    case ZEND_ASYNC_EXCEPTION_DEFAULT:
    case ZEND_ASYNC_EXCEPTION_DNS:
    case ZEND_ASYNC_EXCEPTION_POLL:
    case ZEND_ASYNC_EXCEPTION_TIMEOUT:
    case ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT:
      return zend_ce_exception;
    case ZEND_ASYNC_EXCEPTION_CANCELLATION:
      return zend_ce_error;
    default:
      return NULL;
  }
}

zend_future_t *zar_new_future_stub(bool thread_safe, size_t extra_size) {
  (void)thread_safe;
  (void)extra_size;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return NULL;
}

zend_async_channel_t *zar_new_channel_stub(size_t buffer_size, bool resizable,
                                           bool thread_safe,
                                           size_t extra_size) {
  (void)buffer_size;
  (void)resizable;
  (void)thread_safe;
  (void)extra_size;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return NULL;
}

zend_object *zar_new_future_obj_stub(zend_future_t *future) {
  (void)future;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return NULL;
}

zend_object *zar_new_channel_obj_stub(zend_async_channel_t *channel) {
  (void)channel;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return NULL;
}

zend_async_group_t *zar_new_group_stub(uint32_t concurrency,
                                       uint32_t queue_limit,
                                       zend_object *scope) {
  (void)concurrency;
  (void)queue_limit;
  (void)scope;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return NULL;
}

zend_async_context_t *zar_new_context_stub(void) {
  zend_throw_error(NULL, "Context API is not enabled");
  return NULL;
}

/* Without fibers the caller already runs on the main stack. */
void zar_call_on_main_stack_default(void (*fn)(void *), void *arg) { fn(arg); }

zend_async_pool_t *zar_new_pool_stub(
    zend_async_pool_factory_fn factory,
    zend_async_pool_destructor_fn destructor,
    zend_async_pool_healthcheck_fn healthcheck,
    zend_async_pool_before_acquire_fn before_acquire,
    zend_async_pool_before_release_fn before_release, uint32_t min_size,
    uint32_t max_size, uint32_t healthcheck_interval_ms, size_t extra_size) {
  (void)factory;
  (void)destructor;
  (void)healthcheck;
  (void)before_acquire;
  (void)before_release;
  (void)min_size;
  (void)max_size;
  (void)healthcheck_interval_ms;
  (void)extra_size;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return NULL;
}

zend_object *zar_new_pool_obj_stub(zend_async_pool_t *pool) {
  (void)pool;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return NULL;
}

bool zar_pool_acquire_stub(zend_async_pool_t *pool, zval *result,
                           zend_long timeout_ms) {
  (void)pool;
  (void)result;
  (void)timeout_ms;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return false;
}

bool zar_pool_try_acquire_stub(zend_async_pool_t *pool, zval *result) {
  (void)pool;
  (void)result;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
  return false;
}

void zar_pool_release_stub(zend_async_pool_t *pool, zval *resource) {
  (void)pool;
  (void)resource;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
}

void zar_pool_close_stub(zend_async_pool_t *pool) {
  (void)pool;
  zend_throw_error(NULL, ASYNC_NOT_ENABLED);
}

zend_async_listen_event_t *zar_socket_listen_stub(const char *host, int port,
                                                  int backlog, uint32_t flags,
                                                  size_t extra_size) {
  (void)host;
  (void)port;
  (void)backlog;
  (void)flags;
  (void)extra_size;
  zend_throw_error(NULL, "Socket listening API is not enabled");
  return NULL;
}

zend_async_listen_event_t *zar_socket_listen_fd_stub(zend_socket_t fd,
                                                     int backlog,
                                                     uint32_t flags,
                                                     size_t extra_size) {
  (void)fd;
  (void)backlog;
  (void)flags;
  (void)extra_size;
  zend_throw_error(NULL, "Socket listening API is not enabled");
  return NULL;
}
