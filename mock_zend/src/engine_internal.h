// zend-async-ref: mock Zend engine, internal interfaces.
//
// What the units of the mock engine (mock_zend/src/*.cc) share with each
// other and with the C++ helpers, but do not publish: startup/shutdown of
// each piece of engine state, and a few lookups several units need.
// Everything here runs on the engine's single thread.

#ifndef MOCK_ZEND_SRC_ENGINE_INTERNAL_H_
#define MOCK_ZEND_SRC_ENGINE_INTERNAL_H_

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" {
#include "php_main.h"
}

namespace mock_zend::internal {

// ---- The request allocator (alloc.cc) ----

// Chooses the allocator's mechanism for the engine starting: the heap, or
// the tracker when USE_ZEND_ALLOC is set to 0 (always the tracker in the
// sanitizer builds). Blocks already handed out stay valid.
void AllocStartup();
// Releases the heap's chunks when no request block is alive.
void AllocShutdown();

// ---- Strings (interned_strings.cc, string.cc) ----

// Creates the known strings (ZSTR_KNOWN, zend_empty_string).
void KnownStringsStartup();
// Frees every interned string, known strings included.
void InternedStringsShutdown();
// The interned lowercase form of `name`.
zend_string* InternLowercase(const char* name, size_t len);
// printf into a std::string, for the engine's C functions that take a
// va_list (C++ callers use absl::StrFormat).
std::string VFormat(const char* format, va_list ap);
// PHP's rendering of a float as a string ("1.5", "1.0E+25", "INF").
std::string DoubleToString(double value);

// ---- Hash tables (hash.cc, hash_iterators.cc, array.cc) ----

// Makes `out` the immutable empty array (not refcounted: Z_TYPE_INFO ==
// IS_ARRAY), like PHP's ZVAL_EMPTY_ARRAY.
void ZvalEmptyArray(zval* out);
// zend_array_dup's part for iterators: each iterator of `source` gets a
// copy on `target` at the same element, linked into its next_copy list.
void CopyHashIterators(const HashTable* source, HashTable* target);
// Frees EG(ht_iterators) (request shutdown).
void HashIteratorsShutdown();
// The table's side of its iterators (hash_iterators.cc), for hash.cc:
// before its holes are squeezed out, every cursor (iterators and the
// internal pointer) moves to its compacted position; a destroyed table's
// iterators are detached; an emptied table's iterators move to its end.
void HashIteratorsCompact(HashTable* ht);
void HashIteratorsPoison(const HashTable* ht);
void HashIteratorsClampToEnd(const HashTable* ht);
// A persistent table of the engine's own (EG(zend_constants),
// EG(ini_directives)), and its end: the table is destroyed (its entries
// must be freed first), its memory freed and `table` set to NULL; nothing
// happens when it is NULL already.
HashTable* NewEngineTable(uint32_t size);
void FreeEngineTable(HashTable*& table);

// ---- Functions and classes (functions.cc, class_registry.cc) ----

// A persistent internal function. `name` is interned. Owned by the table
// it is put in (see FreeFunction).
zend_function* NewInternalFunction(zend_class_entry* scope, const char* name,
                                   size_t name_len, zif_handler handler,
                                   uint32_t flags);
// A persistent function built from one zend_function_entry (num_args,
// required_num_args and arg_info as PHP derives them).
zend_function* FunctionFromEntry(const zend_function_entry* entry,
                                 zend_class_entry* scope);
// Runs the reserved-data destructor convention (zend.h), releases the
// function's attributes and frees `fn`.
void FreeFunction(zend_function* fn);
// Adds (or replaces) a method of `ce` under its lowercase name, and keeps
// ce->constructor/destructor current.
void AddMethod(zend_class_entry* ce, zend_function* fn);
// Case-insensitive lookup in a function table; NULL when missing.
zend_function* FindFunction(const HashTable* table, const char* name,
                            size_t len);

// Registers a class (or, with ZEND_ACC_INTERFACE in `flags`, an
// interface) named `name` with `functions` (may be NULL).
zend_class_entry* RegisterClass(const char* name, zend_class_entry* parent,
                                const zend_function_entry* functions,
                                uint32_t flags);

// EG(function_table) and EG(class_table) are created / destroyed (classes
// in reverse registration order, with their functions and enum cases).
void ClassTablesStartup();
void ClassTablesShutdown();
// Registers the builtin classes and interfaces; clears their pointers.
void RegisterBuiltinClasses();
void ResetBuiltinClassPointers();
void RegisterThrowableClasses();
// WeakReference (weakrefs.cc): zend_ce_weakref.
void RegisterWeakReferenceClass();
// Iterator, IteratorAggregate, InternalIterator and the iterator wrapper
// class (iterators.cc).
void RegisterIteratorClasses();
// Gives a class that now implements Iterator or IteratorAggregate and has
// no get_iterator the one that calls its methods (zend_class_implements).
void InstallIteratorHandler(zend_class_entry* ce);
// The declaration of property `name` of `ce` (its own or inherited), or
// nullptr.
zend_property_info* FindPropertyInfo(const zend_class_entry* ce,
                                     const char* name, size_t len);
// The declared slot of `object` named `name`, or nullptr.
zval* PropertySlot(zend_object* object, const char* name, size_t len);

// ---- Objects (objects_store.cc) ----

void ObjectsStoreStartup();
// Request shutdown step 6: destructors, free_obj, memory, store.
void ObjectsStoreShutdown();

// ---- Execution (execute.cc) ----

void SetMainScriptRunning(bool running);
// Forgets the interned copy of the location's filename (module shutdown).
void ResetLocationCache();
// Records the references that the frames of the running call chain hold,
// before a bailout abandons them (see zend_mock_release_bailout_frames).
void SnapshotFramesForBailout();

// ---- Calls (fcall_info.cc) ----

// Resolves a callable zval into `fcc`; false (no exception) when it cannot
// be called.
bool ResolveCallableForCall(zval* callable, zend_object* object,
                            zend_fcall_info_cache* fcc);

// ---- Closures (closures.cc) ----

void RegisterClosureClass();
// The closure object whose function is `fn`, or nullptr if `fn` is not the
// function of a closure.
zend_object* ClosureFromFunction(zend_function* fn);
zend_function* ClosureFunction(zend_object* closure);

// ---- C++ bodies (callable.cc) ----

// Runs the NativeBody (mock_zend/callable.h) at `body` for a call of a
// closure (`closure`) or of a method (nullptr). A C++ exception escaping
// it never crosses the engine: it becomes an Error "C++ exception in
// <where>: <what()>" (without ": <what()>" when it is no std::exception).
void RunNativeBody(void* body, zend_object* closure,
                   zend_execute_data* execute_data, zval* return_value,
                   const char* where);
// Deletes the NativeBody at `body`: the deleter of a closure's data and of
// a method's reserved[0] (kept in reserved[1]).
void DeleteNativeBody(void* body);

// ---- Enums (enum.cc) ----

// Releases the case objects created during this request.
void ReleaseRequestEnumCases();
// Frees the case records of an enum class (class table teardown).
void FreeEnumCases(zend_class_entry* ce);

// ---- Errors (errors.cc) ----

// The one way a name the mock provides but cannot honestly run fails
// loudly: an E_CORE_ERROR "<function>() is not supported by the mock
// engine: <reason>" (which bails out inside zend_try, see zend.h). The
// caller then returns its failure value; nothing else changes.
void Unsupported(const char* function, const char* reason);

// ---- Fibers (fibers.cc) ----

// Request startup, as PHP's zend_fiber_init and zend_vm_stack_init: the
// main fiber context (EG(main_fiber_context), EG(current_fiber_context)),
// EG(fiber_stack_size), EG(error_reporting), switching unblocked, and the
// request's VM stack page.
void FibersStartup();
// Request shutdown: frees the VM stack and the main context, and blocks
// switching (zend_fiber_shutdown).
void FibersShutdown();
// ---- Compiled code (compiled_code.cc) ----

// Frees the map-pointer table (module shutdown).
void MapPtrShutdown();
// ---- Unwinding objects (unwind_exit.cc) ----
// Fills in the UnwindExit and GracefulExit class entries (module startup).
void ExitClassesStartup();

// ---- The compiler's and PHP's globals, constants (compile.cc,
// php_globals.cc, constants.cc) ----
// CG(function_table)/CG(class_table) follow EG()'s; the constants table is
// created (module startup) and destroyed (module shutdown, after the last
// request); non-persistent constants go at request shutdown.
void CompilerGlobalsStartup();
// EG(ini_directives) (ini.cc): created at module startup; module shutdown
// frees the directives modules left registered, then the table.
void IniStartup();
void IniShutdown();
void CompilerGlobalsShutdown();
void ConstantsStartup();
void ConstantsRequestShutdown();
void ConstantsShutdown();
// Records a reported error as PHP's last error (PG(last_error_*)).
void NoteLastError(int type, const std::string& message);
// Forgets the last error (request shutdown, module shutdown).
void ClearLastError();

// ---- Observers (observer.cc) ----

// Forgets every registered fiber observer (module shutdown).
void ObserverShutdown();

// ---- The request (php_main.cc) ----

// Records a fatal error reported while a request is active
// (php_mock_request_fatal_error).
void NoteRequestFatalError(const std::string& message);

// ---- GC (gc_buffer.cc) ----

void GcBufferFree();

}  // namespace mock_zend::internal

#endif  // MOCK_ZEND_SRC_ENGINE_INTERNAL_H_
