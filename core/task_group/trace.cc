// The task groups' trace lines (trace.h).

#include "core/task_group/trace.h"

#include <cinttypes>
#include <cstdio>

#include "core/internal/trace_text.h"

namespace zar::core {
namespace {

// A key's or an outcome's rendering.
using Text = internal::ValueText<256>;

uint64_t last_group_id = 0;

}  // namespace

const char* GroupToken(const TaskGroup* group,
                       char buf[ZEND_ASYNC_REF_NAME_SIZE]) {
  return internal::TokenText::Format(buf, "TaskGroup", group->id);
}

void ResetTaskGroupIds() { last_group_id = 0; }
uint64_t NextTaskGroupId() { return ++last_group_id; }

void TraceGroupSpawn(const TaskGroup* group, const zval* key,
                     const zend_coroutine_t* coroutine) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("group spawn %s %s -> %s", GroupToken(group, token),
                       Text(key).text, internal::CoroutineText(coroutine).text);
}

void TraceGroupQueue(const TaskGroup* group, const zval* key) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("group queue %s %s", GroupToken(group, token),
                       Text(key).text);
}

void TraceGroupDone(const TaskGroup* group, const zval* key, const zval* result,
                    zend_object* exception) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace(
      "group done %s %s -> %s", GroupToken(group, token), Text(key).text,
      exception != nullptr ? internal::ExceptionText(exception).text
                           : Text(result).text);
}

void TraceGroupSettled(const TaskGroup* group) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("group settled %s (total=%u)", GroupToken(group, token),
                       zend_hash_num_elements(&group->tasks));
}

}  // namespace zar::core
