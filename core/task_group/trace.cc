// The task groups' trace lines (trace.h).

#include "core/task_group/trace.h"

#include <cinttypes>
#include <cstdio>

namespace zar::core {
namespace {

// Room for a key's or an outcome's rendering.
constexpr size_t kValueSize = 256;

uint64_t last_group_id = 0;

}  // namespace

const char* GroupToken(const TaskGroup* group,
                       char buf[ZEND_ASYNC_REF_NAME_SIZE]) {
  snprintf(buf, ZEND_ASYNC_REF_NAME_SIZE, "TaskGroup#%" PRIu64, group->id);
  return buf;
}

void ResetTaskGroupIds() { last_group_id = 0; }
uint64_t NextTaskGroupId() { return ++last_group_id; }

void TraceGroupSpawn(const TaskGroup* group, const zval* key,
                     const zend_coroutine_t* coroutine) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  char name[ZEND_ASYNC_REF_NAME_SIZE];
  char key_text[kValueSize];
  zend_async_ref_describe_zval(key, false, key_text, sizeof(key_text));
  zend_async_ref_trace("group spawn %s %s -> %s", GroupToken(group, token),
                       key_text,
                       zend_async_ref_coroutine_name(coroutine, name));
}

void TraceGroupQueue(const TaskGroup* group, const zval* key) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  char key_text[kValueSize];
  zend_async_ref_describe_zval(key, false, key_text, sizeof(key_text));
  zend_async_ref_trace("group queue %s %s", GroupToken(group, token), key_text);
}

void TraceGroupDone(const TaskGroup* group, const zval* key, const zval* result,
                    zend_object* exception) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  char key_text[kValueSize];
  char outcome[kValueSize];
  zend_async_ref_describe_zval(key, false, key_text, sizeof(key_text));
  if (exception != nullptr) {
    zend_async_ref_describe_exception(exception, outcome, sizeof(outcome));
  } else {
    zend_async_ref_describe_zval(result, false, outcome, sizeof(outcome));
  }
  zend_async_ref_trace("group done %s %s -> %s", GroupToken(group, token),
                       key_text, outcome);
}

void TraceGroupSettled(const TaskGroup* group) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("group settled %s (total=%u)", GroupToken(group, token),
                       zend_hash_num_elements(&group->tasks));
}

}  // namespace zar::core
