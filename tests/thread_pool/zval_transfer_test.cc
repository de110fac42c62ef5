// Conformance of the thread pool group's zval transfer functions
// (ZEND_ASYNC_THREAD_TRANSFER_ZVAL*, ZEND_ASYNC_THREAD_LOAD_ZVAL*,
// zend_async_thread_release_transferred_zval_fn, xlat_put, defer_release),
// with php-async's semantics (thread.c, "Zval transfer").
//
// Everything runs on the request's thread: the transferred graph is built
// and loaded in the same request, which is what a worker thread sees too.
// The fixture's TearDown fails a test that leaves a request block or an
// object alive; persistent memory is checked by running this binary under
// valgrind (docs/thread_pool.md).
//
// Ported from php-async tests/thread (the value-transfer scenarios); the
// list is in docs/thread_pool.md.

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "tests/support/implementation.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "Zend/zend_enum.h"
#include "php.h"
}

namespace {

using zar::testing::TakeExceptionText;

class ZvalTransferTest : public zar::testing::RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {zar::testing::AsyncModule()};
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
                               ZEND_ACC_PUBLIC);
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
    return TakeExceptionText();
  }
  // Expects the toplevel transfer of `src` to throw Error(message) and to
  // leave the destination UNDEF.
  static void ExpectRefused(const zval* src, const std::string& message) {
    zval transferred;
    EXPECT_EQ(Transfer(&transferred, src), "Error: " + message);
    EXPECT_EQ(Z_TYPE(transferred), IS_UNDEF);
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
  static void RoundTrip(const zval* src, zval* loaded) {
    zval transferred;
    ASSERT_EQ(Transfer(&transferred, src), "");
    ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(loaded, &transferred);
    Release(&transferred);
    EXPECT_EQ(Z_TYPE(transferred), IS_UNDEF);
  }
};

// A deep rendering of a request value (objects by class and slots; a
// cycle prints "*RECURSION*").
std::string Dump(const zval* value, std::set<const void*>* open) {
  switch (Z_TYPE_P(value)) {
    case IS_ARRAY: {
      std::string out = "[";
      zend_ulong index;
      zend_string* key;
      zval* entry;
      ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(value), index, key, entry) {
        out += key != nullptr ? "\"" + std::string(ZSTR_VAL(key)) + "\""
                              : std::to_string(index);
        out += "=>" + Dump(entry, open) + ",";
      }
      ZEND_HASH_FOREACH_END();
      return out + "]";
    }
    case IS_OBJECT: {
      zend_object* object = Z_OBJ_P(value);
      if (!open->insert(object).second) return "*RECURSION*";
      std::string out = mock_zend::ClassName(object) + "{";
      for (int i = 0; i < object->ce->default_properties_count; i++) {
        out += Dump(&object->properties_table[i], open) + ",";
      }
      open->erase(object);
      return out + "}";
    }
    default:
      return mock_zend::Describe(value);
  }
}
std::string Dump(const zval* value) {
  std::set<const void*> open;
  return Dump(value, &open);
}

// ---- Values -----------------------------------------------------------------

TEST_F(ZvalTransferTest, ScalarsRoundTripUnchanged) {
  zval values[5];
  ZVAL_NULL(&values[0]);
  ZVAL_FALSE(&values[1]);
  ZVAL_TRUE(&values[2]);
  ZVAL_LONG(&values[3], -42);
  ZVAL_DOUBLE(&values[4], 2.5);
  for (const zval& value : values) {
    zval transferred;
    ASSERT_EQ(Transfer(&transferred, &value), "");
    EXPECT_EQ(Dump(&transferred), Dump(&value));
    zval loaded;
    ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
    Release(&transferred);
    EXPECT_EQ(Dump(&loaded), Dump(&value));
  }
}

TEST_F(ZvalTransferTest, StringIsCopiedIntoPersistentMemory) {
  zval src;
  ZVAL_STRING(&src, "hello thread");
  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  ASSERT_EQ(Z_TYPE(transferred), IS_STRING);
  EXPECT_NE(Z_STR(transferred), Z_STR(src));
  EXPECT_TRUE(GC_FLAGS(Z_STR(transferred)) & IS_STR_PERSISTENT);
  EXPECT_STREQ(Z_STRVAL(transferred), "hello thread");

  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  Release(&transferred);
  ASSERT_EQ(Z_TYPE(loaded), IS_STRING);
  EXPECT_FALSE(GC_FLAGS(Z_STR(loaded)) & IS_STR_PERSISTENT);
  EXPECT_STREQ(Z_STRVAL(loaded), "hello thread");
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, InternedStringIsCopiedLikeAnyOther) {
  zval src;
  ZVAL_STR(&src, zend_string_init_interned(ZEND_STRL("interned"), 1));
  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  EXPECT_NE(Z_STR(transferred), Z_STR(src));
  EXPECT_FALSE(ZSTR_IS_INTERNED(Z_STR(transferred)));
  EXPECT_TRUE(GC_FLAGS(Z_STR(transferred)) & IS_STR_PERSISTENT);
  Release(&transferred);
}

TEST_F(ZvalTransferTest, NestedArraysRoundTripIntoPersistentTables) {
  zval inner, src;
  array_init(&inner);
  add_next_index_long(&inner, 1);
  add_next_index_string(&inner, "two");
  add_next_index_double(&inner, 3.5);
  array_init(&src);
  add_assoc_string(&src, "name", "worker");
  add_index_long(&src, 7, 70);
  add_assoc_zval(&src, "list", &inner);
  add_next_index_null(&src);

  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  ASSERT_EQ(Z_TYPE(transferred), IS_ARRAY);
  EXPECT_NE(Z_ARR(transferred), Z_ARR(src));
  EXPECT_TRUE(GC_FLAGS(Z_ARR(transferred)) & IS_ARRAY_PERSISTENT);
  zval* list = zend_hash_str_find(Z_ARR(transferred), ZEND_STRL("list"));
  ASSERT_NE(list, nullptr);
  EXPECT_TRUE(GC_FLAGS(Z_ARR_P(list)) & IS_ARRAY_PERSISTENT);
  EXPECT_EQ(Dump(&transferred), Dump(&src));

  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  Release(&transferred);
  EXPECT_EQ(Dump(&loaded),
            "[\"name\"=>string(\"worker\"),7=>int(70),\"list\"=>[0=>int(1),1=>"
            "string(\"two\"),2=>float(3.5),],8=>null,]");
  EXPECT_FALSE(GC_FLAGS(Z_ARR(loaded)) & IS_ARRAY_PERSISTENT);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, EmptyArrayRoundTrips) {
  zval src, loaded;
  array_init(&src);
  RoundTrip(&src, &loaded);
  ASSERT_EQ(Z_TYPE(loaded), IS_ARRAY);
  EXPECT_EQ(zend_hash_num_elements(Z_ARR(loaded)), 0u);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, LargeStringAndArrayRoundTrip) {
  const std::string large(1024 * 1024, 'X');
  zval src, loaded;
  array_init(&src);
  add_next_index_stringl(&src, large.data(), large.size());
  zval map;
  array_init(&map);
  for (int i = 0; i < 1000; i++) {
    const std::string key = "key_" + std::to_string(i);
    const std::string value = "value_" + std::to_string(i);
    add_assoc_string_ex(&map, key.data(), key.size(), value.c_str());
  }
  add_next_index_zval(&src, &map);
  RoundTrip(&src, &loaded);

  zval* text = zend_hash_index_find(Z_ARR(loaded), 0);
  EXPECT_EQ(std::string(Z_STRVAL_P(text), Z_STRLEN_P(text)), large);
  HashTable* loaded_map = Z_ARR_P(zend_hash_index_find(Z_ARR(loaded), 1));
  EXPECT_EQ(zend_hash_num_elements(loaded_map), 1000u);
  EXPECT_STREQ(Z_STRVAL_P(zend_hash_str_find(loaded_map, ZEND_STRL("key_500"))),
               "value_500");
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

// ---- Identity ---------------------------------------------------------------

TEST_F(ZvalTransferTest, SameArrayTwiceIsCopiedOnceAndLoadedOnce) {
  zval shared, src;
  array_init(&shared);
  add_next_index_long(&shared, 1);
  Twice(&src, &shared);

  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  zval* first = zend_hash_index_find(Z_ARR(transferred), 0);
  zval* second = zend_hash_index_find(Z_ARR(transferred), 1);
  EXPECT_EQ(Z_ARR_P(first), Z_ARR_P(second));

  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  Release(&transferred);
  first = zend_hash_index_find(Z_ARR(loaded), 0);
  second = zend_hash_index_find(Z_ARR(loaded), 1);
  EXPECT_EQ(Z_ARR_P(first), Z_ARR_P(second));
  EXPECT_EQ(GC_REFCOUNT(Z_ARR_P(first)), 2u);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, SameStringTwiceSharesOneCopy) {
  zval text, src;
  ZVAL_STRING(&text, "shared text");
  Twice(&src, &text);

  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  zend_string* first = Z_STR_P(zend_hash_index_find(Z_ARR(transferred), 0));
  EXPECT_EQ(first, Z_STR_P(zend_hash_index_find(Z_ARR(transferred), 1)));
  EXPECT_EQ(GC_REFCOUNT(first), 2u);
  Release(&transferred);
  zval_ptr_dtor(&src);
}

// ---- Objects ----------------------------------------------------------------

TEST_F(ZvalTransferTest, ObjectLoadsAsNewObjectOfItsClassWithItsProperties) {
  zend_class_entry* point = DeclareClass("XferPoint", {"x", "label", "tags"});
  zend_object* object = New(point);
  zend_update_property_long(point, object, ZEND_STRL("x"), 3);
  zend_update_property_string(point, object, ZEND_STRL("label"), "origin");
  zval src;
  ZVAL_OBJ(&src, object);

  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  EXPECT_EQ(Z_TYPE(transferred), IS_OBJECT);
  EXPECT_NE(Z_OBJ(transferred), object);

  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  Release(&transferred);
  ASSERT_EQ(Z_TYPE(loaded), IS_OBJECT);
  EXPECT_NE(Z_OBJ(loaded), object);
  EXPECT_EQ(Z_OBJCE(loaded), point);
  EXPECT_EQ(Dump(&loaded), "XferPoint{int(3),string(\"origin\"),null,}");
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, SameObjectTwiceLoadsAsOneObject) {
  zend_class_entry* box = DeclareClass("XferBox", {"value"});
  zend_object* object = New(box);
  zval src, item;
  ZVAL_OBJ(&item, object);
  Twice(&src, &item);

  zval loaded;
  RoundTrip(&src, &loaded);
  zend_object* first = Z_OBJ_P(zend_hash_index_find(Z_ARR(loaded), 0));
  EXPECT_EQ(first, Z_OBJ_P(zend_hash_index_find(Z_ARR(loaded), 1)));
  EXPECT_NE(first, object);
  EXPECT_EQ(GC_REFCOUNT(first), 2u);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, SelfReferencingObjectSurvives) {
  zend_class_entry* node = DeclareClass("XferNode", {"self", "name"});
  zend_object* object = New(node);
  SetObject(object, "self", object);
  zend_update_property_string(node, object, ZEND_STRL("name"), "loop");
  zval src;
  ZVAL_OBJ(&src, object);

  zval loaded;
  RoundTrip(&src, &loaded);
  zend_object* copy = Z_OBJ(loaded);
  EXPECT_NE(copy, object);
  EXPECT_EQ(Z_OBJ_P(Get(copy, "self")), copy);
  EXPECT_STREQ(Z_STRVAL_P(Get(copy, "name")), "loop");

  // Break both cycles so the objects are freed.
  SetNull(copy, "self");
  SetNull(object, "self");
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, DoublyLinkedNodesKeepBothDirections) {
  zend_class_entry* node = DeclareClass("XferLink", {"prev", "next"});
  zend_object* a = New(node);
  zend_object* b = New(node);
  SetObject(a, "next", b);
  SetObject(b, "prev", a);
  zval src;
  ZVAL_OBJ(&src, a);

  zval loaded;
  RoundTrip(&src, &loaded);
  zend_object* a_copy = Z_OBJ(loaded);
  zend_object* b_copy = Z_OBJ_P(Get(a_copy, "next"));
  EXPECT_NE(b_copy, b);
  EXPECT_EQ(Z_OBJ_P(Get(b_copy, "prev")), a_copy);

  SetNull(b_copy, "prev");
  SetNull(b, "prev");
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
  OBJ_RELEASE(b);
}

TEST_F(ZvalTransferTest, EnumCaseLoadsAsTheRequestsCase) {
  zend_class_entry* suit =
      zend_register_internal_enum("XferSuit", IS_UNDEF, nullptr);
  zend_enum_add_case_cstr(suit, "Hearts", nullptr);
  zend_enum_add_case_cstr(suit, "Spades", nullptr);
  zend_object* spades = zend_enum_get_case_cstr(suit, "Spades");
  zval src;
  ZVAL_OBJ_COPY(&src, spades);

  zval loaded;
  RoundTrip(&src, &loaded);
  EXPECT_EQ(Z_OBJ(loaded), spades);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, MissingClassOnLoadThrowsAndLoadsStdClass) {
  zend_class_entry* gone = DeclareClass("XferGone", {"v"});
  zval src;
  ZVAL_OBJ(&src, New(gone));
  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");

  // The loading thread does not know the class.
  ASSERT_EQ(zend_hash_str_del(EG(class_table), ZEND_STRL("xfergone")), SUCCESS);
  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  zend_hash_str_update_ptr(EG(class_table), ZEND_STRL("xfergone"), gone);

  EXPECT_EQ(TakeExceptionText(),
            "Error: Cannot load transferred object: class \"XferGone\" not "
            "found");
  ASSERT_EQ(Z_TYPE(loaded), IS_OBJECT);
  EXPECT_EQ(Z_OBJCE(loaded), zend_standard_class_def);
  Release(&transferred);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

// ---- Refusals ---------------------------------------------------------------

TEST_F(ZvalTransferTest, ObjectWithDynamicPropertiesIsRefused) {
  zval src;
  object_init(&src);
  zend_update_property_long(Z_OBJCE(src), Z_OBJ(src), ZEND_STRL("dyn"), 1);
  ExpectRefused(&src,
                "Cannot transfer object with dynamic properties between "
                "threads");
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, ResourceIsRefused) {
  zval src;
  NewResource(&src);
  ExpectRefused(&src, "Cannot transfer a resource between threads");
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, ReferenceIsRefused) {
  zend_reference reference;
  GC_SET_REFCOUNT(&reference, 1);
  GC_TYPE_INFO(&reference) = GC_REFERENCE;
  ZVAL_LONG(&reference.val, 1);
  reference.sources = nullptr;
  zval src;
  Z_REF(src) = &reference;
  Z_TYPE_INFO(src) = IS_REFERENCE_EX;
  ExpectRefused(&src, "Cannot transfer a reference between threads");
}

TEST_F(ZvalTransferTest, UnsupportedTypeIsRefused) {
  zval target, src;
  ZVAL_LONG(&target, 1);
  src.value.ptr = &target;  // the mock has no Z_INDIRECT
  Z_TYPE_INFO(src) = IS_INDIRECT;
  ExpectRefused(&src,
                "Cannot transfer zval of unsupported type between threads");
}

// Builds `levels` arrays nested in each other, the innermost holding 1.
void Nest(zval* out, int levels) {
  ZVAL_LONG(out, 1);
  for (int i = 0; i < levels; i++) {
    zval outer;
    array_init(&outer);
    add_next_index_zval(&outer, out);
    ZVAL_COPY_VALUE(out, &outer);
  }
}

TEST_F(ZvalTransferTest, FiveHundredTwelveLevelsOfNestingAreAccepted) {
  zval src, loaded;
  Nest(&src, 512);
  RoundTrip(&src, &loaded);
  EXPECT_EQ(Z_TYPE(loaded), IS_ARRAY);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, DeeperNestingIsRefusedWithTheDepthMessage) {
  zval src;
  Nest(&src, 513);
  ExpectRefused(&src,
                "Maximum nesting depth exceeded during thread data transfer");
  zval_ptr_dtor(&src);
}

// The partial copy (strings, a table, a cyclic shell) is freed before the
// throw: valgrind reports no persistent block lost for this test.
TEST_F(ZvalTransferTest, RefusalFreesThePartialCopy) {
  zend_class_entry* holder = DeclareClass("XferHolder", {"self", "bad"});
  zend_object* object = New(holder);
  SetObject(object, "self", object);
  zval resource;
  NewResource(&resource);
  Set(object, "bad", &resource);
  zval_ptr_dtor(&resource);

  zval list, src;
  array_init(&list);
  add_next_index_string(&list, "before");
  array_init(&src);
  add_assoc_zval(&src, "list", &list);
  zval item;
  ZVAL_OBJ(&item, object);
  add_assoc_zval(&src, "holder", &item);
  add_assoc_string(&src, "after", "never copied");

  ExpectRefused(&src, "Cannot transfer a resource between threads");

  SetNull(object, "self");
  zval_ptr_dtor(&src);
}

// ---- IS_PTR -----------------------------------------------------------------

TEST_F(ZvalTransferTest, PointerIsPassedThroughAndLoadsAsNull) {
  static int payload = 5;
  zval src;
  ZVAL_PTR(&src, &payload);
  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  ASSERT_EQ(Z_TYPE(transferred), IS_PTR);
  EXPECT_EQ(Z_PTR(transferred), &payload);
  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  EXPECT_EQ(Z_TYPE(loaded), IS_NULL);
  Release(&transferred);
  EXPECT_EQ(payload, 5);
}

// ---- Release ----------------------------------------------------------------

// Shared tables, shared and cyclic shells, shared strings: each is freed
// once (valgrind: no invalid free, nothing lost).
TEST_F(ZvalTransferTest, ReleaseFreesASharedCyclicGraphOnce) {
  zend_class_entry* node = DeclareClass("XferGraph", {"peer", "data"});
  zend_object* a = New(node);
  zend_object* b = New(node);
  SetObject(a, "peer", b);
  SetObject(b, "peer", a);
  zval data;
  array_init(&data);
  add_next_index_string(&data, "payload");
  Set(a, "data", &data);
  Set(b, "data", &data);

  zval src, item;
  array_init(&src);
  ZVAL_OBJ(&item, a);
  add_next_index_zval(&src, &item);
  ZVAL_OBJ(&item, b);
  add_next_index_zval(&src, &item);
  add_next_index_zval(&src, &data);

  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  Release(&transferred);
  EXPECT_EQ(Z_TYPE(transferred), IS_UNDEF);

  SetNull(a, "peer");
  zval_ptr_dtor(&src);
}

// ---- The ctx variants -------------------------------------------------------

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

TEST_F(ZvalTransferTest, CtxTransferSetsErrorInsteadOfThrowing) {
  zval src;
  NewResource(&src);
  TransferCtx ctx;
  zval transferred;
  ZEND_ASYNC_THREAD_TRANSFER_ZVAL(ctx.get(), &transferred, &src);
  EXPECT_STREQ(ctx.get()->error, "Cannot transfer a resource between threads");
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(Z_TYPE(transferred), IS_NULL);
  EXPECT_EQ(ctx.get()->depth, 0u);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, CtxKeepsIdentityAcrossCalls) {
  zval src;
  array_init(&src);
  add_next_index_long(&src, 1);
  TransferCtx ctx;
  zval first, second;
  ZEND_ASYNC_THREAD_TRANSFER_ZVAL(ctx.get(), &first, &src);
  ZEND_ASYNC_THREAD_TRANSFER_ZVAL(ctx.get(), &second, &src);
  EXPECT_EQ(Z_ARR(first), Z_ARR(second));
  Release(&first);  // one graph: released once
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, CtxLoadKeepsIdentityAcrossCalls) {
  zend_class_entry* box = DeclareClass("XferCtxBox", {"value"});
  zval src, transferred;
  ZVAL_OBJ(&src, New(box));
  ASSERT_EQ(Transfer(&transferred, &src), "");
  TransferCtx ctx;
  zval first, second;
  ZEND_ASYNC_THREAD_LOAD_ZVAL(ctx.get(), &first, &transferred);
  ZEND_ASYNC_THREAD_LOAD_ZVAL(ctx.get(), &second, &transferred);
  EXPECT_EQ(Z_OBJ(first), Z_OBJ(second));
  EXPECT_EQ(GC_REFCOUNT(Z_OBJ(first)), 2u);
  Release(&transferred);
  zval_ptr_dtor(&first);
  zval_ptr_dtor(&second);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, XlatPutMakesLaterCopiesReuseTheGivenCopy) {
  zval src, copy;
  array_init(&src);
  ASSERT_EQ(Transfer(&copy, &src), "");
  TransferCtx ctx;
  ZEND_ASYNC_THREAD_XLAT_PUT(ctx.get(), Z_ARR(src), Z_ARR(copy));
  zval again;
  ZEND_ASYNC_THREAD_TRANSFER_ZVAL(ctx.get(), &again, &src);
  EXPECT_EQ(Z_ARR(again), Z_ARR(copy));
  Release(&copy);
  zval_ptr_dtor(&src);
}

// ---- transfer_obj -----------------------------------------------------------

std::vector<std::string> handler_calls;
zend_string* deferred_string = nullptr;
zend_object_handlers custom_handlers;

zend_object* RecordingTransferObj(zend_object* object,
                                  zend_async_thread_transfer_ctx_t* ctx,
                                  zend_object_transfer_kind_t kind,
                                  zend_object_transfer_default_fn default_fn) {
  switch (kind) {
    case ZEND_OBJECT_TRANSFER:
      handler_calls.push_back("transfer");
      return default_fn(object, ctx, 0);
    case ZEND_OBJECT_LOAD: {
      handler_calls.push_back("load");
      zval keep;
      ZVAL_STR_COPY(&keep, deferred_string);
      ZEND_ASYNC_THREAD_DEFER_RELEASE(ctx, &keep);
      EXPECT_EQ(Z_TYPE(keep), IS_UNDEF);
      return default_fn(object, ctx, 0);
    }
    default:
      handler_calls.push_back("release");
      EXPECT_EQ(ctx, nullptr);
      EXPECT_EQ(default_fn, nullptr);
      return nullptr;
  }
}

TEST_F(ZvalTransferTest, TransferObjHandlerRunsForTransferLoadAndRelease) {
  zend_class_entry* custom = DeclareClass("XferCustom", {"v"});
  custom_handlers = std_object_handlers;
  custom_handlers.transfer_obj = RecordingTransferObj;
  custom->default_object_handlers = &custom_handlers;
  handler_calls.clear();
  deferred_string = zend_string_init(ZEND_STRL("deferred"), 0);

  zend_object* object = New(custom);
  zend_update_property_long(custom, object, ZEND_STRL("v"), 9);
  zval src;
  ZVAL_OBJ(&src, object);
  zval transferred, loaded;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  // The deferred reference was dropped when the load ended.
  EXPECT_EQ(GC_REFCOUNT(deferred_string), 1u);
  Release(&transferred);

  EXPECT_EQ(handler_calls,
            (std::vector<std::string>{"transfer", "load", "release"}));
  EXPECT_EQ(Dump(&loaded), "XferCustom{int(9),}");
  zend_string_release(deferred_string);
  deferred_string = nullptr;
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

}  // namespace
