// zend-async-ref thread pool tests: support for ZvalTransferTest.
//
//   - ZvalTransferTest: the engine fixture with the async extension under
//     test loaded (zar::testing::AsyncModule()); its TearDown fails the test
//     on any emalloc block or object left at request end. Helpers declare
//     classes, set properties, and transfer/load/release through the ABI
//     macros only (ZEND_ASYNC_THREAD_*).
//   - Dump: a deep rendering of a request value, for equality checks.
//   - TransferCtx: a zend_async_thread_transfer_ctx_t for the ctx variants.
//
// Threading: the request's thread.

#ifndef ZAR_TESTS_THREAD_POOL_SUPPORT_ZVAL_TRANSFER_TEST_H_
#define ZAR_TESTS_THREAD_POOL_SUPPORT_ZVAL_TRANSFER_TEST_H_

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/implementation.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::thread_pool_testing {

class ZvalTransferTest : public zar::testing::AsyncTest {
 protected:
  void SetUp() override {
    AsyncTest::SetUp();
    // The request's object store makes its (persistent) table for the
    // first object: made now, it is not counted against a transfer
    // (ExpectRefused, RoundTrip).
    zval first;
    object_init(&first);
    zval_ptr_dtor(&first);
  }

  // A class with public declared properties named `props` (default null).
  static zend_class_entry* DeclareClass(const char* name,
                                        std::vector<const char*> props) {
    zend_class_entry ce;
    memset(&ce, 0, sizeof(ce));
    ce.name = zend_string_init_interned(name, strlen(name), 1);
    zend_class_entry* registered = zend_register_internal_class(&ce);
    for (const char* prop : props) {
      zval null_value;
      ZVAL_NULL(&null_value);
      zend_string* prop_name = zend_string_init_interned(prop, strlen(prop), 1);
      zend_declare_property_ex(registered, prop_name, &null_value,
                               ZEND_ACC_PUBLIC, nullptr);
    }
    return registered;
  }

  static zend_object* New(zend_class_entry* ce) {
    zval object;
    object_init_ex(&object, ce);
    return Z_OBJ(object);
  }

  // Sets `object->name = value` (adds a reference to value).
  static void Set(zend_object* object, const char* name, zval* value) {
    zend_update_property(object->ce, object, name, strlen(name), value);
  }
  static void SetObject(zend_object* object, const char* name,
                        zend_object* target) {
    zval value;
    ZVAL_OBJ(&value, target);
    Set(object, name, &value);
  }
  // Two new objects of `ce` linked both ways: first->`forward` is the
  // second, second->`back` the first. The caller holds one reference to
  // each besides the links' own.
  static std::pair<zend_object*, zend_object*> NewLinkedPair(
      zend_class_entry* ce, const char* forward, const char* back) {
    zend_object* first = New(ce);
    zend_object* second = New(ce);
    SetObject(first, forward, second);
    SetObject(second, back, first);
    return {first, second};
  }
  static void SetNull(zend_object* object, const char* name) {
    zval value;
    ZVAL_NULL(&value);
    Set(object, name, &value);
  }
  static zval* Get(zend_object* object, const char* name) {
    zval rv;
    return zend_read_property(object->ce, object, name, strlen(name), true,
                              &rv);
  }

  // `out` = [item, item]: the array takes `item`'s reference and one more.
  static void Twice(zval* out, zval* item) {
    array_init(out);
    add_next_index_zval(out, item);
    Z_TRY_ADDREF_P(item);
    add_next_index_zval(out, item);
  }

  // Transfers `src` with the toplevel function; "" or the exception text.
  static std::string Transfer(zval* dst, const zval* src) {
    ZEND_ASYNC_THREAD_TRANSFER_ZVAL_TOPLEVEL(dst, src);
    return zar::testing::TakeExceptionText();
  }
  // Expects the toplevel transfer of `src` to throw Error(message), to
  // leave the destination UNDEF and to free whatever it had copied: as
  // many persistent blocks are alive afterwards as before.
  static void ExpectRefused(const zval* src, const std::string& message) {
    const size_t persistent_blocks = zend_mock_persistent_blocks();
    zval transferred;
    EXPECT_EQ(Transfer(&transferred, src), "Error: " + message);
    EXPECT_EQ(Z_TYPE(transferred), IS_UNDEF);
    EXPECT_EQ(zend_mock_persistent_blocks(), persistent_blocks)
        << "persistent blocks the refused transfer left behind";
  }
  // A new resource (refcount 1, the caller's).
  static void NewResource(zval* out) {
    int type = zend_register_list_destructors_ex(nullptr, nullptr, "xfer", 0);
    ZVAL_RES(out, zend_register_resource(nullptr, type));
  }
  static void Release(zval* transferred) {
    zend_async_thread_release_transferred_zval_fn(transferred);
  }
  // Transfers, loads and releases: the value a worker would see.
  // The release frees every persistent block the transfer made.
  static void RoundTrip(const zval* src, zval* loaded) {
    const size_t persistent_blocks = zend_mock_persistent_blocks();
    zval transferred;
    ASSERT_EQ(Transfer(&transferred, src), "");
    ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(loaded, &transferred);
    Release(&transferred);
    EXPECT_EQ(Z_TYPE(transferred), IS_UNDEF);
    EXPECT_EQ(zend_mock_persistent_blocks(), persistent_blocks)
        << "persistent blocks the released transfer left behind";
  }
};

// A deep rendering of a request value: scalars as mock_zend::Describe,
// arrays as [key=>value,...], objects as Class{slot,...}; a cycle prints
// "*RECURSION*".
std::string Dump(const zval* value);

class TransferCtx {
 public:
  TransferCtx() {
    zend_hash_init(&ctx_.xlat, 8, nullptr, nullptr, 0);
    ctx_.depth = 0;
    ctx_.defer_release = nullptr;
    ctx_.error = nullptr;
  }
  ~TransferCtx() { zend_hash_destroy(&ctx_.xlat); }
  zend_async_thread_transfer_ctx_t* get() { return &ctx_; }

 private:
  zend_async_thread_transfer_ctx_t ctx_;
};

}  // namespace zar::thread_pool_testing

#endif  // ZAR_TESTS_THREAD_POOL_SUPPORT_ZVAL_TRANSFER_TEST_H_
