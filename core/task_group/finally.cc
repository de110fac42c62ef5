// The finally runner of a task group (task_group.h, "Between the group's
// files"): once the group completes, its finally() handlers run in a new
// coroutine of the group's scope, each called with the group, in
// registration order, until one throws (its exception ends that
// coroutine). A handler registered after completion is called at once by
// finally() itself (object.cc).

#include "core/internal/internal_coroutine.h"
#include "core/task_group/task_group.h"

namespace zar::core {
namespace {

// What the finally handlers' coroutine runs; owns a group reference.
struct FinallyRun {
  TaskGroup* group;
  HashTable* handlers;
};

void FreeFinallyRun(FinallyRun* run) {
  if (run->handlers != nullptr) zend_array_destroy(run->handlers);
  if (run->group != nullptr) OBJ_RELEASE(&run->group->std);
  efree(run);
}

// The body of the finally coroutine: each handler($group), in
// registration order, until one throws (its exception ends the coroutine).
void RunFinallyHandlers(FinallyRun* run) {
  zval param;
  ZVAL_OBJ(&param, &run->group->std);
  zval* handler;
  ZEND_HASH_FOREACH_VAL(run->handlers, handler) {
    zval retval;
    ZVAL_UNDEF(&retval);
    call_user_function(nullptr, nullptr, handler, &retval, 1, &param);
    zval_ptr_dtor(&retval);
    if (EG(exception) != nullptr) break;
  }
  ZEND_HASH_FOREACH_END();
}

}  // namespace

void StartFinallyHandlers(TaskGroup* group) {
  HashTable* handlers = group->finally_handlers;
  group->finally_handlers = nullptr;
  if (group->scope == nullptr) {
    zend_array_destroy(handlers);
    return;
  }
  auto* run = static_cast<FinallyRun*>(ecalloc(1, sizeof(FinallyRun)));
  GC_ADDREF(&group->std);
  run->group = group;
  run->handlers = handlers;
  internal::SpawnInternal<FinallyRun, RunFinallyHandlers, FreeFinallyRun>(
      group->scope, run);
}

}  // namespace zar::core
