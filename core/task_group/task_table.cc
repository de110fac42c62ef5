// The task table (task_table.h) and the queries that read it
// (task_group.h: HasErrors, CollectResults, CollectErrors).

#include "core/task_group/task_table.h"

#include "core/task_group/classes.h"

namespace zar::core {
namespace {

void TaskDtor(zval* zv) {
  if (IsEntry(zv)) {
    FreeEntry(EntryOf(zv));
  } else {
    zval_ptr_dtor(zv);
  }
}

// Adds `value` (taken over) to `table` under the bucket key (num_key,
// str_key).
void AddUnder(HashTable* table, zend_ulong num_key, zend_string* str_key,
              zval* value) {
  if (str_key != nullptr) {
    zend_hash_add_new(table, str_key, value);
  } else {
    zend_hash_index_add_new(table, num_key, value);
  }
}

// Calls visit(num_key, str_key, task) for every task, in spawn order.
template <typename Visit>
void ForEachTask(const TaskGroup* group, Visit visit) {
  zend_ulong num_key;
  zend_string* str_key;
  zval* zv;
  ZEND_HASH_FOREACH_KEY_VAL(&group->tasks, num_key, str_key, zv) {
    visit(num_key, str_key, zv);
  }
  ZEND_HASH_FOREACH_END();
}

}  // namespace

void InitTaskTable(HashTable* tasks) {
  zend_hash_init(tasks, 8, nullptr, TaskDtor, 0);
}

TaskEntry* NewEntry(TaskState state) {
  auto* entry = static_cast<TaskEntry*>(ecalloc(1, sizeof(TaskEntry)));
  entry->state = state;
  return entry;
}

void FreeEntry(TaskEntry* entry) {
  if (entry->fcall != nullptr) zend_fcall_release(entry->fcall);
  if (entry->exception != nullptr) OBJ_RELEASE(entry->exception);
  efree(entry);
}

zval* FindTask(TaskGroup* group, const zval* key) {
  return Z_TYPE_P(key) == IS_STRING
             ? zend_hash_find(&group->tasks, Z_STR_P(key))
             : zend_hash_index_find(&group->tasks, Z_LVAL_P(key));
}

void AddTask(TaskGroup* group, const zval* key, zval* value) {
  if (Z_TYPE_P(key) == IS_STRING) {
    AddUnder(&group->tasks, 0, Z_STR_P(key), value);
  } else {
    AddUnder(&group->tasks, static_cast<zend_ulong>(Z_LVAL_P(key)), nullptr,
             value);
  }
}

void DeleteTask(TaskGroup* group, const zval* key) {
  if (Z_TYPE_P(key) == IS_STRING) {
    zend_hash_del(&group->tasks, Z_STR_P(key));
  } else {
    zend_hash_index_del(&group->tasks, static_cast<zend_ulong>(Z_LVAL_P(key)));
  }
}

void KeyOf(zend_ulong num_key, zend_string* str_key, zval* key) {
  if (str_key != nullptr) {
    ZVAL_STR_COPY(key, str_key);
  } else {
    ZVAL_LONG(key, static_cast<zend_long>(num_key));
  }
}

void RemoveDelivered(TaskGroup* group, const zval* key) {
  if (group->task_set) DeleteTask(group, key);
}

void RemoveAllDelivered(TaskGroup* group) {
  if (group->task_set) zend_hash_clean(&group->tasks);
}

zval* FirstPending(TaskGroup* group, zval* key) {
  zend_ulong num_key;
  zend_string* str_key;
  zval* zv;
  ZEND_HASH_FOREACH_KEY_VAL(&group->tasks, num_key, str_key, zv) {
    if (IsPending(zv)) {
      KeyOf(num_key, str_key, key);
      return zv;
    }
  }
  ZEND_HASH_FOREACH_END();
  return nullptr;
}

void DeletePending(TaskGroup* group) {
  // The keys first: deleting while walking would skip buckets.
  HashTable* keys = zend_new_array(group->pending_count);
  ForEachTask(group,
              [keys](zend_ulong num_key, zend_string* str_key, zval* task) {
                if (!IsPending(task)) return;
                zval key;
                KeyOf(num_key, str_key, &key);
                zend_hash_next_index_insert(keys, &key);
              });
  zval* key;
  ZEND_HASH_FOREACH_VAL(keys, key) { DeleteTask(group, key); }
  ZEND_HASH_FOREACH_END();
  zend_array_destroy(keys);
}

bool HasErrors(const TaskGroup* group) {
  zval* zv;
  ZEND_HASH_FOREACH_VAL(&group->tasks, zv) {
    if (IsError(zv)) return true;
  }
  ZEND_HASH_FOREACH_END();
  return false;
}

HashTable* CollectResults(const TaskGroup* group) {
  HashTable* results = zend_new_array(zend_hash_num_elements(&group->tasks));
  ForEachTask(group,
              [results](zend_ulong num_key, zend_string* str_key, zval* task) {
                if (IsEntry(task)) return;
                Z_TRY_ADDREF_P(task);
                AddUnder(results, num_key, str_key, task);
              });
  return results;
}

HashTable* CollectErrors(const TaskGroup* group) {
  HashTable* errors = zend_new_array(4);
  ForEachTask(group,
              [errors](zend_ulong num_key, zend_string* str_key, zval* task) {
                if (!IsError(task)) return;
                zval error;
                ZVAL_OBJ_COPY(&error, EntryOf(task)->exception);
                AddUnder(errors, num_key, str_key, &error);
              });
  return errors;
}

zend_object* CollectComposite(const TaskGroup* group) {
  zend_object* composite = NewCompositeException();
  zval* zv;
  ZEND_HASH_FOREACH_VAL(&group->tasks, zv) {
    if (IsError(zv)) CompositeExceptionAdd(composite, EntryOf(zv)->exception);
  }
  ZEND_HASH_FOREACH_END();
  return composite;
}

void AddTasksToGc(const TaskGroup* group, zend_get_gc_buffer* buffer) {
  zval* zv;
  ZEND_HASH_FOREACH_VAL(&group->tasks, zv) {
    if (!IsEntry(zv)) {
      zend_get_gc_buffer_add_zval(buffer, zv);
      continue;
    }
    const TaskEntry* entry = EntryOf(zv);
    if (entry->fcall != nullptr) {
      zend_get_gc_buffer_add_zval(buffer, &entry->fcall->fci.function_name);
      for (uint32_t p = 0; p < entry->fcall->fci.param_count; p++) {
        zend_get_gc_buffer_add_zval(buffer, &entry->fcall->fci.params[p]);
      }
    }
    if (entry->exception != nullptr) {
      zend_get_gc_buffer_add_obj(buffer, entry->exception);
    }
  }
  ZEND_HASH_FOREACH_END();
}

}  // namespace zar::core
