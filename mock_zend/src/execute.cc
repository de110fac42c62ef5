// zend-async-ref: mock Zend engine. The executor globals, call frames of
// internal functions, the name of the running function and the executing
// location (zend_execute.h, zend_globals.h, zend_API.h).
//
// A frame lives on the C stack of zend_mock_execute_internal() and is
// linked from EG(current_execute_data) while its function runs. For the
// duration of the call it holds a reference to $this and, when the
// function is a closure's, to the closure object, so a callee that drops
// the last other reference to either cannot free it mid-call.
//
// Bailout: a longjmp abandons the frames above the zend_try it lands in
// without running their epilogues. _zend_bailout() first records the
// references the frames of the chain hold (every bailout adds those not
// yet recorded); a frame that still returns (it was below the zend_try)
// takes its own off the record before releasing them. The code that
// catches the bailout at the bottom of a stack releases the record with
// zend_mock_release_bailout_frames(); what is left when the request ends
// (bailouts caught by an extension that does not, as php-async's
// coroutines) is released then, as PHP frees those objects with the
// object store.

#include <algorithm>
#include <string>
#include <vector>

#include "engine_internal.h"

namespace {

// Marks the frames built here (opline is otherwise unused by the mock), so
// that a bailout only touches references this file took.
const char kMockFrame = 0;

bool main_script_running = false;

// A reference a frame held when a bailout happened, and the frame.
struct BailoutReference {
  const zend_execute_data* frame;
  zend_object* object;
};

// The references held by frames bailouts may have abandoned.
std::vector<BailoutReference>& BailoutFrames() {
  static auto* frames = new std::vector<BailoutReference>();
  return *frames;
}

// Takes the references of `frame` off the record: it returned, and
// releases them itself.
void ForgetBailoutFrame(const zend_execute_data* frame) {
  std::vector<BailoutReference>& frames = BailoutFrames();
  std::erase_if(frames, [frame](const BailoutReference& reference) {
    return reference.frame == frame;
  });
}

// Cache of the interned copy of EG(mock_filename).
const char* cached_filename_source = nullptr;
zend_string* cached_filename = nullptr;

}  // namespace

extern "C" {

zend_executor_globals executor_globals;

void zend_mock_execute_internal(zend_function* func, zend_object* object,
                                uint32_t argc, zval* argv, zval* retval) {
  zend_execute_data frame;
  memset(&frame, 0, sizeof(frame));
  frame.opline = &kMockFrame;
  frame.func = func;
  frame.return_value = retval;
  frame.args = argv;
  if (object != nullptr) {
    GC_ADDREF(object);
    ZVAL_OBJ(&frame.This, object);
  } else {
    ZVAL_UNDEF(&frame.This);
  }
  ZEND_CALL_NUM_ARGS(&frame) = argc;
  zend_object* closure = mock_zend::internal::ClosureFromFunction(func);
  if (closure != nullptr) GC_ADDREF(closure);
  frame.prev_execute_data = EG(current_execute_data);
  EG(current_execute_data) = &frame;

  ZVAL_NULL(retval);
  if (func->internal_function.handler == nullptr) {
    zend_throw_error(
        nullptr, "Cannot call abstract method %s::%s()",
        func->common.scope != nullptr ? ZSTR_VAL(func->common.scope->name) : "",
        ZSTR_VAL(func->common.function_name));
  } else {
    func->internal_function.handler(&frame, retval);
  }

  EG(current_execute_data) = frame.prev_execute_data;
  if (!BailoutFrames().empty()) ForgetBailoutFrame(&frame);
  if (closure != nullptr) OBJ_RELEASE(closure);
  if (object != nullptr) OBJ_RELEASE(object);
}

void zend_mock_release_bailout_frames(void) {
  std::vector<BailoutReference> frames;
  frames.swap(BailoutFrames());
  for (const BailoutReference& reference : frames) {
    OBJ_RELEASE(reference.object);
  }
}

const char* get_active_function_name(void) {
  zend_execute_data* frame = EG(current_execute_data);
  if (frame == nullptr || frame->func == nullptr) return nullptr;
  zend_string* name = frame->func->common.function_name;
  return name != nullptr ? ZSTR_VAL(name) : "main";
}

const char* get_active_class_name(const char** space) {
  zend_execute_data* frame = EG(current_execute_data);
  zend_class_entry* scope = frame != nullptr && frame->func != nullptr
                                ? frame->func->common.scope
                                : nullptr;
  if (space != nullptr) *space = scope != nullptr ? "::" : "";
  return scope != nullptr ? ZSTR_VAL(scope->name) : "";
}

zend_string* get_active_function_or_method_name(void) {
  zend_execute_data* frame = EG(current_execute_data);
  if (frame == nullptr || frame->func == nullptr) return nullptr;
  zend_function* func = frame->func;
  zend_string* name = func->common.function_name;
  if (func->common.scope == nullptr) {
    return name != nullptr ? zend_string_copy(name)
                           : zend_string_copy(ZSTR_KNOWN(ZEND_STR_MAIN));
  }
  return zend_strpprintf(0, "%s::%s", ZSTR_VAL(func->common.scope->name),
                         name != nullptr ? ZSTR_VAL(name) : "");
}

const char* zend_get_executed_filename(void) {
  return EG(mock_filename) != nullptr ? EG(mock_filename) : "[no active file]";
}

zend_string* zend_get_executed_filename_ex(void) {
  if (EG(mock_filename) == nullptr) return nullptr;
  if (EG(mock_filename) != cached_filename_source ||
      cached_filename == nullptr) {
    cached_filename = zend_string_init_interned(
        EG(mock_filename), strlen(EG(mock_filename)), true);
    cached_filename_source = EG(mock_filename);
  }
  return cached_filename;
}

uint32_t zend_get_executed_lineno(void) {
  return EG(mock_filename) != nullptr ? EG(mock_lineno) : 0;
}

// A location set with zend_mock_set_location stands for a script running
// there: PHP reports an executed file only while executing, and extensions
// ask zend_is_executing() before they take zend_get_executed_filename_ex().
bool zend_is_executing(void) {
  return EG(current_execute_data) != nullptr || main_script_running ||
         EG(mock_filename) != nullptr;
}

void zend_mock_set_location(const char* filename, uint32_t lineno) {
  EG(mock_filename) = filename;
  EG(mock_lineno) = lineno;
}

}  // extern "C"

namespace mock_zend::internal {

void SetMainScriptRunning(bool running) { main_script_running = running; }

void ResetLocationCache() {
  cached_filename_source = nullptr;
  cached_filename = nullptr;
}

void SnapshotFramesForBailout() {
  std::vector<BailoutReference>& frames = BailoutFrames();
  for (zend_execute_data* frame = EG(current_execute_data); frame != nullptr;
       frame = frame->prev_execute_data) {
    if (frame->opline != &kMockFrame) continue;
    // A frame already recorded (below an earlier bailout's zend_try) is
    // recorded once. A frame at the address of one recorded earlier is not
    // recorded: at worst its references stay (a reported leak), never
    // released twice.
    if (std::any_of(frames.begin(), frames.end(),
                    [frame](const BailoutReference& reference) {
                      return reference.frame == frame;
                    })) {
      continue;
    }
    if (Z_TYPE(frame->This) == IS_OBJECT) {
      frames.push_back({frame, Z_OBJ(frame->This)});
    }
    if (zend_object* closure = ClosureFromFunction(frame->func)) {
      frames.push_back({frame, closure});
    }
  }
}

}  // namespace mock_zend::internal
