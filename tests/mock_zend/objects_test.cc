// Tests of the mock engine's objects: the store, the release sequence,
// standard handlers and instantiation.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mock_zend/class_builder.h"
#include "mock_zend/inspect.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

// A C struct embedding its zend_object last, with its own handlers that
// record the release sequence.
struct Tracked {
  int payload;
  zend_object std;
};

std::vector<std::string> events;
zend_object* resurrected = nullptr;
bool resurrect_in_dtor = false;
zend_object_handlers tracked_handlers;

Tracked* FromObject(zend_object* object) {
  return reinterpret_cast<Tracked*>(reinterpret_cast<char*>(object) -
                                    offsetof(Tracked, std));
}

void TrackedDtor(zend_object* object) {
  events.push_back("dtor " + std::to_string(FromObject(object)->payload));
  if (resurrect_in_dtor) {
    GC_ADDREF(object);
    resurrected = object;
  }
}

void TrackedFree(zend_object* object) {
  events.push_back("free " + std::to_string(FromObject(object)->payload));
  zend_object_std_dtor(object);
}

zend_object* CreateTracked(zend_class_entry* ce) {
  auto* tracked = static_cast<Tracked*>(zend_object_alloc(sizeof(Tracked), ce));
  zend_object_std_init(&tracked->std, ce);
  object_properties_init(&tracked->std, ce);
  tracked->std.handlers = &tracked_handlers;
  return &tracked->std;
}

class MockZendObjectsTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    events.clear();
    resurrected = nullptr;
    resurrect_in_dtor = false;
    tracked_handlers = std_object_handlers;
    tracked_handlers.offset = offsetof(Tracked, std);
    tracked_handlers.dtor_obj = TrackedDtor;
    tracked_handlers.free_obj = TrackedFree;
    zend_class_entry ce;
    INIT_CLASS_ENTRY(ce, "Tracked", nullptr);
    ce.create_object = CreateTracked;
    tracked_ce_ = zend_register_internal_class_ex(&ce, nullptr);
  }

  zend_object* NewTracked(int payload) {
    zval z;
    EXPECT_EQ(object_init_ex(&z, tracked_ce_), SUCCESS);
    FromObject(Z_OBJ(z))->payload = payload;
    return Z_OBJ(z);
  }

  // Ends the request early and starts a clean one (tests that leave
  // objects alive on purpose).
  php_mock_request_report ShutdownAndRunCleanRequest() {
    const php_mock_request_report report = ShutdownRequest();
    EXPECT_EQ(php_request_startup(), SUCCESS);
    php_request_shutdown(nullptr);
    return report;
  }

  zend_class_entry* tracked_ce_ = nullptr;
};

// `count` new stdClass objects, in the order they were made.
std::vector<zend_object*> NewObjects(size_t count) {
  std::vector<zend_object*> objects;
  for (size_t i = 0; i < count; i++) {
    objects.push_back(zend_objects_new(zend_standard_class_def));
  }
  return objects;
}

std::vector<uint32_t> HandlesOf(const std::vector<zend_object*>& objects) {
  std::vector<uint32_t> handles;
  for (const zend_object* object : objects) handles.push_back(object->handle);
  return handles;
}

void ReleaseAll(const std::vector<zend_object*>& objects) {
  for (zend_object* object : objects) OBJ_RELEASE(object);
}

TEST_F(MockZendObjectsTest, HandlesAreSequentialFromOne) {
  const std::vector<zend_object*> objects = NewObjects(3);
  EXPECT_EQ(HandlesOf(objects), (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(EG(objects_store).object_buckets[2], objects[1]);
  ReleaseAll(objects);
}

TEST_F(MockZendObjectsTest, FreedHandlesAreReusedMostRecentlyFreedFirst) {
  const std::vector<zend_object*> objects = NewObjects(4);
  OBJ_RELEASE(objects[1]);  // handle 2
  OBJ_RELEASE(objects[2]);  // handle 3
  const std::vector<zend_object*> reused = NewObjects(3);
  EXPECT_EQ(HandlesOf(reused), (std::vector<uint32_t>{3, 2, 5}));
  ReleaseAll({objects[0], objects[3]});
  ReleaseAll(reused);
}

TEST_F(MockZendObjectsTest, ReleaseRunsDtorObjThenFreeObjExactlyOnce) {
  const size_t blocks = zend_mm_live_blocks();
  zend_object* object = NewTracked(7);
  EXPECT_EQ(zend_objects_store_live_count(), 1u);
  OBJ_RELEASE(object);
  EXPECT_EQ(events, (std::vector<std::string>{"dtor 7", "free 7"}));
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
}

TEST_F(MockZendObjectsTest, ObjectResurrectedByItsDestructorStaysAlive) {
  resurrect_in_dtor = true;
  zend_object* object = NewTracked(1);
  OBJ_RELEASE(object);
  EXPECT_EQ(events, (std::vector<std::string>{"dtor 1"}));
  ASSERT_EQ(resurrected, object);
  EXPECT_EQ(GC_REFCOUNT(object), 1u);
  EXPECT_EQ(zend_objects_store_live_count(), 1u);
  resurrect_in_dtor = false;
  OBJ_RELEASE(resurrected);  // the destructor does not run a second time
  EXPECT_EQ(events, (std::vector<std::string>{"dtor 1", "free 1"}));
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendObjectsTest, ObjectsAliveAtShutdownAreCountedThenDestroyed) {
  NewTracked(1);
  NewTracked(2);
  const php_mock_request_report report = ShutdownAndRunCleanRequest();
  EXPECT_EQ(report.objects_alive_at_shutdown, 2u);
  EXPECT_EQ(report.leaked_blocks, 0u);
  EXPECT_EQ(events,
            (std::vector<std::string>{"dtor 1", "dtor 2", "free 1", "free 2"}));
}

TEST_F(MockZendObjectsTest, StdInitCopiesTheDeclaredDefaults) {
  zend_class_entry* ce = mock_zend::ClassBuilder("WithProps")
                             .Property("first")
                             .Property("second")
                             .Build();
  zval value;
  ZVAL_LONG(&value, 42);
  zend_declare_property_ex(ce, zend_string_init_interned(ZEND_STRL("third"), 1),
                           &value, ZEND_ACC_PUBLIC, nullptr);
  zval obj;
  ASSERT_EQ(object_init_ex(&obj, ce), SUCCESS);
  zend_object* object = Z_OBJ(obj);
  EXPECT_EQ(GC_REFCOUNT(object), 1u);
  EXPECT_EQ(GC_TYPE(object), IS_OBJECT);
  EXPECT_EQ(object->handlers, &std_object_handlers);
  EXPECT_EQ(object->properties, nullptr);
  EXPECT_EQ(Z_TYPE(object->properties_table[0]), IS_NULL);
  EXPECT_EQ(Z_TYPE(object->properties_table[1]), IS_NULL);
  EXPECT_EQ(Z_LVAL(object->properties_table[2]), 42);
  zval_ptr_dtor(&obj);
}

TEST_F(MockZendObjectsTest,
       ObjectInitExRefusesInterfacesAbstractClassesAndEnums) {
  zend_class_entry* abstract_ce =
      mock_zend::ClassBuilder("AbstractThing").Build();
  abstract_ce->ce_flags |= ZEND_ACC_EXPLICIT_ABSTRACT_CLASS;
  zend_class_entry* enum_ce =
      zend_register_internal_enum("Suit", IS_UNDEF, nullptr);
  struct Case {
    zend_class_entry* ce;
    std::string message;
  } cases[] = {
      {zend_ce_countable, "Cannot instantiate interface Countable"},
      {abstract_ce, "Cannot instantiate abstract class AbstractThing"},
      {enum_ce, "Cannot instantiate enum Suit"},
  };
  for (const Case& c : cases) {
    zval z;
    EXPECT_EQ(object_init_ex(&z, c.ce), FAILURE);
    EXPECT_EQ(Z_TYPE(z), IS_NULL);
    zend_object* error = mock_zend::TakeException();
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->ce, zend_ce_error);
    EXPECT_EQ(mock_zend::ExceptionMessage(error), c.message);
    OBJ_RELEASE(error);
  }
}

TEST_F(MockZendObjectsTest, ObjectInitMakesAStdClass) {
  zval z;
  object_init(&z);
  EXPECT_EQ(Z_OBJCE(z), zend_standard_class_def);
  EXPECT_EQ(mock_zend::ClassName(Z_OBJ(z)), "stdClass");
  zval_ptr_dtor(&z);
}

TEST_F(MockZendObjectsTest, CloneCopiesDeclaredAndDynamicProperties) {
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Cloneable").Property("a").Build();
  zval obj;
  object_init_ex(&obj, ce);
  zend_update_property_long(ce, Z_OBJ(obj), ZEND_STRL("a"), 5);
  zend_update_property_string(ce, Z_OBJ(obj), ZEND_STRL("dynamic"), "d");
  zend_object* copy = Z_OBJ_HT(obj)->clone_obj(Z_OBJ(obj));
  EXPECT_NE(copy, Z_OBJ(obj));
  EXPECT_EQ(copy->ce, ce);
  EXPECT_EQ(
      Z_LVAL_P(zend_read_property(ce, copy, ZEND_STRL("a"), true, nullptr)), 5);
  EXPECT_STREQ(Z_STRVAL_P(zend_read_property(ce, copy, ZEND_STRL("dynamic"),
                                             true, nullptr)),
               "d");
  OBJ_RELEASE(copy);
  zval_ptr_dtor(&obj);
}

TEST_F(MockZendObjectsTest, StdHandlersReportNameMethodsAndIdentity) {
  zend_class_entry* ce = mock_zend::ClassBuilder("Handled")
                             .Property("p")
                             .Method("DoIt", [](mock_zend::Call&) {})
                             .Build();
  zval a;
  zval b;
  object_init_ex(&a, ce);
  object_init_ex(&b, ce);
  zend_object* object = Z_OBJ(a);
  zend_string* name = object->handlers->get_class_name(object);
  EXPECT_STREQ(ZSTR_VAL(name), "Handled");
  zend_string_release(name);
  zend_string* method = zend_string_init(ZEND_STRL("doit"), false);
  EXPECT_NE(object->handlers->get_method(&object, method, nullptr), nullptr);
  zend_string_release(method);
  method = zend_string_init(ZEND_STRL("DOIT"), false);
  EXPECT_NE(object->handlers->get_method(&object, method, nullptr), nullptr);
  zend_string_release(method);
  EXPECT_EQ(object->handlers->compare(&a, &a), 0);
  EXPECT_NE(object->handlers->compare(&a, &b), 0);
  zval* table = nullptr;
  int n = -1;
  EXPECT_EQ(object->handlers->get_gc(object, &table, &n), nullptr);
  EXPECT_EQ(table, object->properties_table);
  EXPECT_EQ(n, 1);
  HashTable* properties = object->handlers->get_properties(object);
  EXPECT_NE(properties, nullptr);
  EXPECT_EQ(object->handlers->get_gc(object, &table, &n), properties);
  zval_ptr_dtor(&a);
  zval_ptr_dtor(&b);
}

}  // namespace
