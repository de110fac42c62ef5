// The thread pool group's registration: the 11 entries of
// zend_async_thread_pool_register, described once by a designated-
// initialised table and passed from a single place.

#include "core/thread_pool/thread_pool.h"

#include "core/reactor/reactor.h"
#include "core/reactor/thread_event.h"
#include "core/thread_pool/task.h"
#include "core/thread_pool/worker_pool.h"
#include "core/thread_pool/zval_transfer.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::core {
namespace {

// Every slot of zend_async_thread_pool_register, in its parameter order.
struct ThreadPoolTable {
  zend_async_new_task_t new_task;
  zend_async_queue_task_t queue_task;
  zend_async_new_thread_pool_t new_thread_pool;
  zend_async_start_thread_t start_thread;
  zend_async_thread_transfer_zval_t transfer_zval;
  zend_async_thread_load_zval_t load_zval;
  zend_async_thread_transfer_zval_toplevel_t transfer_zval_toplevel;
  zend_async_thread_load_zval_toplevel_t load_zval_toplevel;
  zend_async_thread_release_transferred_zval_t release_transferred_zval;
  zend_async_thread_xlat_put_t xlat_put;
  zend_async_thread_defer_release_t defer_release;
};

constexpr ThreadPoolTable kThreadPool = {
    .new_task = thread_pool::NewTask,
    .queue_task = thread_pool::QueueTask,
    .new_thread_pool = thread_pool::NewWorkerPool,
    .start_thread = reactor::StartThread,
    .transfer_zval = thread_pool::TransferZval,
    .load_zval = thread_pool::LoadZval,
    .transfer_zval_toplevel = thread_pool::TransferZvalToplevel,
    .load_zval_toplevel = thread_pool::LoadZvalToplevel,
    .release_transferred_zval = thread_pool::ReleaseTransferredZval,
    .xlat_put = thread_pool::XlatPut,
    .defer_release = thread_pool::DeferRelease,
};

}  // namespace

void RegisterThreadPool() {
  const ThreadPoolTable& t = kThreadPool;
  zend_async_thread_pool_register(
      kReactorModuleName, /*allow_override=*/false, t.new_task, t.queue_task,
      t.new_thread_pool, t.start_thread, t.transfer_zval, t.load_zval,
      t.transfer_zval_toplevel, t.load_zval_toplevel,
      t.release_transferred_zval, t.xlat_put, t.defer_release);
  // Not a parameter of the register function (ABI v0.24 added it without
  // widening the signature): assigned directly, as upstream's extension
  // does.
  zend_async_thread_release_transferred_zvals_fn =
      thread_pool::ReleaseTransferredZvals;
}

}  // namespace zar::core
