// Conformance of the zval transfer functions for objects: the default copy
// (declared properties, the class by name, enum cases, a missing class),
// identity and cycles, the ctx variants (ZEND_ASYNC_THREAD_TRANSFER_ZVAL,
// ZEND_ASYNC_THREAD_LOAD_ZVAL, xlat_put) and the transfer_obj handler with
// defer_release. Support and threading: zval_transfer_test.cc.

#include "tests/thread_pool/support/zval_transfer_test.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "Zend/zend_enum.h"
#include "php.h"
}

namespace {

using zar::testing::TakeExceptionText;
using zar::thread_pool_testing::Dump;
using zar::thread_pool_testing::TransferCtx;
using zar::thread_pool_testing::ZvalTransferTest;

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
  auto [a, b] = NewLinkedPair(node, "next", "prev");
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

// ---- The ctx variants -------------------------------------------------------

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

// Gives `ce` the recording transfer_obj handler, with an empty record.
void RecordTransfers(zend_class_entry* ce) {
  custom_handlers = std_object_handlers;
  custom_handlers.transfer_obj = RecordingTransferObj;
  ce->default_object_handlers = &custom_handlers;
  handler_calls.clear();
  deferred_string = zend_string_init(ZEND_STRL("deferred"), 0);
}

void StopRecording() {
  zend_string_release(deferred_string);
  deferred_string = nullptr;
}

TEST_F(ZvalTransferTest, TransferObjHandlerRunsForTransferLoadAndRelease) {
  zend_class_entry* custom = DeclareClass("XferCustom", {"v"});
  RecordTransfers(custom);

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
  StopRecording();
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

// ABI v0.24 (php-async#213): two roots of one transfer share an object;
// releasing them together frees it once, where releasing them one by one
// would free it twice.
TEST_F(ZvalTransferTest, BatchReleaseFreesAnObjectTwoRootsShareOnce) {
  ASSERT_NE(zend_async_thread_release_transferred_zvals_fn, nullptr);
  zend_class_entry* custom = DeclareClass("XferShared", {"v"});
  RecordTransfers(custom);

  zval shared, first_src, second_src;
  ZVAL_OBJ(&shared, New(custom));
  array_init(&first_src);
  add_next_index_zval(&first_src, &shared);
  Z_ADDREF(shared);
  array_init(&second_src);
  add_next_index_zval(&second_src, &shared);

  TransferCtx ctx;
  zval first, second;
  ZEND_ASYNC_THREAD_TRANSFER_ZVAL(ctx.get(), &first, &first_src);
  ZEND_ASYNC_THREAD_TRANSFER_ZVAL(ctx.get(), &second, &second_src);
  ASSERT_EQ(ctx.get()->error, nullptr);
  EXPECT_EQ(Z_OBJ_P(zend_hash_index_find(Z_ARR(first), 0)),
            Z_OBJ_P(zend_hash_index_find(Z_ARR(second), 0)));

  zval* roots[] = {&first, &second};
  ZEND_ASYNC_THREAD_RELEASE_TRANSFERRED_ZVALS(roots, 2);

  EXPECT_EQ(Z_TYPE(first), IS_UNDEF);
  EXPECT_EQ(Z_TYPE(second), IS_UNDEF);
  EXPECT_EQ(handler_calls, (std::vector<std::string>{"transfer", "release"}));
  StopRecording();
  zval_ptr_dtor(&first_src);
  zval_ptr_dtor(&second_src);
}

TEST_F(ZvalTransferTest, BatchReleaseOfNoRootsDoesNothing) {
  ASSERT_NE(zend_async_thread_release_transferred_zvals_fn, nullptr);
  ZEND_ASYNC_THREAD_RELEASE_TRANSFERRED_ZVALS(nullptr, 0);
  EXPECT_EQ(EG(exception), nullptr);
}

}  // namespace
