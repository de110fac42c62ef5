// Tests of zend_function_entry and its macros as PHP 8.4+ defines them
// (Zend/zend_API.h): the six-argument ZEND_RAW_FENTRY with its frameless
// infos and doc comment, the ZEND_FE/ZEND_ME family on top of it, and
// entry lists written from C the way gen_stub.php writes *_arginfo.h.

#include <gtest/gtest.h>

#include <cstddef>
#include <iterator>

#include "tests/mock_zend/function_entry_c.h"
#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

using zar::mock_zend_testing::CallFunctionByName;
using zar::mock_zend_testing::ExpectFieldsInOrder;

class MockZendFunctionEntryTest : public zar::testing::RequestFixture {};

void Handler(INTERNAL_FUNCTION_PARAMETERS) {
  (void)execute_data;
  RETURN_LONG(1);
}

// The names the ZEND_FE/ZEND_ME macros paste together.
void zif_entry_function(INTERNAL_FUNCTION_PARAMETERS) {
  Handler(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}
void zif_entry_alias(INTERNAL_FUNCTION_PARAMETERS) {
  Handler(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}
void zim_Entry_method(INTERNAL_FUNCTION_PARAMETERS) {
  Handler(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}
void zim_Entry_other(INTERNAL_FUNCTION_PARAMETERS) {
  Handler(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_three, 0, 0, 2)
ZEND_ARG_TYPE_INFO(0, a, IS_LONG, 0)
ZEND_ARG_TYPE_INFO(0, b, IS_LONG, 0)
ZEND_ARG_TYPE_INFO(0, c, IS_LONG, 0)
ZEND_END_ARG_INFO()

const zend_frameless_function_info kFrameless[] = {
    {reinterpret_cast<void*>(&Handler), 3},
    {nullptr, 0},
};

// clang-format off
const zend_function_entry kRaw[] = {
    ZEND_RAW_FENTRY("raw", Handler, arginfo_three, ZEND_ACC_PUBLIC,
                    kFrameless, "/** doc */")
    ZEND_FE_END};
const zend_function_entry kFamily[] = {
    ZEND_FE(entry_function, arginfo_three)
    ZEND_DEP_FE(entry_function, arginfo_three)
    ZEND_FALIAS(aliased, entry_alias, arginfo_three)
    ZEND_ME(Entry, method, arginfo_three, ZEND_ACC_PUBLIC | ZEND_ACC_STATIC)
    ZEND_DEP_ME(Entry, method, arginfo_three, ZEND_ACC_PUBLIC)
    ZEND_MALIAS(Entry, aliased, other, arginfo_three, ZEND_ACC_PRIVATE)
    ZEND_ABSTRACT_ME(Entry, abstract_method, arginfo_three)
    ZEND_FENTRY(fentry, Handler, arginfo_three, ZEND_ACC_FINAL)
    ZEND_NS_FE("Vendor\\Sub", entry_function, arginfo_three)
    ZEND_FE_END};
// clang-format on

TEST_F(MockZendFunctionEntryTest, FieldsAreInPhpsOrder) {
  ExpectFieldsInOrder({
      offsetof(zend_function_entry, fname),
      offsetof(zend_function_entry, handler),
      offsetof(zend_function_entry, arg_info),
      offsetof(zend_function_entry, num_args),
      offsetof(zend_function_entry, flags),
      offsetof(zend_function_entry, frameless_function_infos),
      offsetof(zend_function_entry, doc_comment),
  });
  // Three pointers, two uint32_t, two pointers: PHP's 48 bytes on LP64.
  EXPECT_EQ(sizeof(zend_function_entry), 5 * sizeof(void*) + 8);
}

TEST_F(MockZendFunctionEntryTest, LayoutIsTheSameInCAndCxx) {
  EXPECT_EQ(surface_c_sizeof_function_entry(), sizeof(zend_function_entry));
  EXPECT_EQ(surface_c_offsetof_function_entry_doc_comment(),
            offsetof(zend_function_entry, doc_comment));
}

TEST_F(MockZendFunctionEntryTest,
       RawFentryCarriesItsFramelessInfosAndDocComment) {
  EXPECT_STREQ(kRaw[0].fname, "raw");
  EXPECT_EQ(kRaw[0].handler, &Handler);
  EXPECT_EQ(kRaw[0].arg_info, arginfo_three);
  EXPECT_EQ(kRaw[0].flags, static_cast<uint32_t>(ZEND_ACC_PUBLIC));
  EXPECT_EQ(kRaw[0].frameless_function_infos, kFrameless);
  EXPECT_STREQ(kRaw[0].doc_comment, "/** doc */");
}

TEST_F(MockZendFunctionEntryTest, NumArgsCountsTheArgInfoPastItsReturnEntry) {
  EXPECT_EQ(kRaw[0].num_args, 3u);
  EXPECT_EQ(kFamily[0].num_args, 3u);
}

TEST_F(MockZendFunctionEntryTest, TheFamilyPastesPhpsNamesAndFlags) {
  struct Expected {
    const char* fname;
    zif_handler handler;
    uint32_t flags;
  };
  const Expected expected[] = {
      {"entry_function", zif_entry_function, 0},
      {"entry_function", zif_entry_function, ZEND_ACC_DEPRECATED},
      {"aliased", zif_entry_alias, 0},
      {"method", zim_Entry_method, ZEND_ACC_PUBLIC | ZEND_ACC_STATIC},
      {"method", zim_Entry_method, ZEND_ACC_PUBLIC | ZEND_ACC_DEPRECATED},
      {"aliased", zim_Entry_other, ZEND_ACC_PRIVATE},
      {"abstract_method", nullptr, ZEND_ACC_PUBLIC | ZEND_ACC_ABSTRACT},
      {"fentry", Handler, ZEND_ACC_FINAL},
      {"Vendor\\Sub\\entry_function", zif_entry_function, 0},
  };
  ASSERT_EQ(std::size(kFamily), std::size(expected) + 1);
  for (size_t i = 0; i < std::size(expected); i++) {
    EXPECT_STREQ(kFamily[i].fname, expected[i].fname) << "entry " << i;
    EXPECT_EQ(kFamily[i].handler, expected[i].handler) << "entry " << i;
    EXPECT_EQ(kFamily[i].flags, expected[i].flags) << "entry " << i;
    EXPECT_EQ(kFamily[i].frameless_function_infos, nullptr) << "entry " << i;
    EXPECT_EQ(kFamily[i].doc_comment, nullptr) << "entry " << i;
  }
}

TEST_F(MockZendFunctionEntryTest, FeEndIsAnAllNullEntry) {
  const zend_function_entry& end = kFamily[std::size(kFamily) - 1];
  EXPECT_EQ(end.fname, nullptr);
  EXPECT_EQ(end.handler, nullptr);
  EXPECT_EQ(end.arg_info, nullptr);
  EXPECT_EQ(end.num_args, 0u);
  EXPECT_EQ(end.flags, 0u);
  EXPECT_EQ(end.frameless_function_infos, nullptr);
  EXPECT_EQ(end.doc_comment, nullptr);
}

TEST_F(MockZendFunctionEntryTest, EntriesWrittenFromCReadTheSameInC) {
  EXPECT_EQ(surface_c_function_entry_check(), 0);
}

TEST_F(MockZendFunctionEntryTest, EntriesWrittenFromCRegisterAndAreCalled) {
  ASSERT_EQ(zend_register_functions(nullptr, surface_c_function_entries(),
                                    nullptr, MODULE_PERSISTENT),
            SUCCESS);
  zval args[2];
  ZVAL_LONG(&args[0], 40);
  ZVAL_LONG(&args[1], 2);
  zval sum = CallFunctionByName("Vendor\\c_entry_sum", 2, args);
  ASSERT_EQ(Z_TYPE(sum), IS_LONG);
  EXPECT_EQ(Z_LVAL(sum), 42);
  zval plain = CallFunctionByName("c_entry_plain");
  EXPECT_EQ(Z_TYPE(plain), IS_TRUE);
}

}  // namespace
