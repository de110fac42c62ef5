// The thread pool group's registration: the 11 entries of
// zend_async_thread_pool_register, passed from a single place, each named by
// its parameter in the ABI's declaration.

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

void RegisterThreadPool() {
  zend_async_thread_pool_register(
      kReactorModuleName, /*allow_override=*/false,
      /*new_task_fn=*/thread_pool::NewTask,
      /*queue_task_fn=*/thread_pool::QueueTask,
      /*new_thread_pool_fn=*/thread_pool::NewWorkerPool,
      /*start_thread_fn=*/reactor::StartThread,
      /*transfer_zval_fn=*/thread_pool::TransferZval,
      /*load_zval_fn=*/thread_pool::LoadZval,
      /*transfer_zval_toplevel_fn=*/thread_pool::TransferZvalToplevel,
      /*load_zval_toplevel_fn=*/thread_pool::LoadZvalToplevel,
      /*release_transferred_zval_fn=*/thread_pool::ReleaseTransferredZval,
      /*xlat_put_fn=*/thread_pool::XlatPut,
      /*defer_release_fn=*/thread_pool::DeferRelease);
  // Not a parameter of the register function (ABI v0.24 added it without
  // widening the signature): assigned directly, as upstream's extension
  // does.
  zend_async_thread_release_transferred_zvals_fn =
      thread_pool::ReleaseTransferredZvals;
}

}  // namespace zar::core
