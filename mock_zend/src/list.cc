// zend-async-ref: mock Zend engine. Resources (zend_list.h).
//
// Resource types live for the process (PHP registers them in MINIT and
// keeps them until the engine stops; the mock keeps them until exit, so a
// type id stays valid across engine restarts in one process). A resource is
// an emalloc'd zend_resource; rc_dtor_func (variables.cc) calls
// zend_mock_resource_destroy when the last reference goes.

#include <string>
#include <vector>

#include "engine_internal.h"

extern "C" {
#include "zend_list.h"
}

namespace {

struct ResourceType {
  rsrc_dtor_func_t dtor;
  std::string name;
};

std::vector<ResourceType>& Types() {
  static auto* types = new std::vector<ResourceType>();
  return *types;
}

const ResourceType* TypeOf(int type) {
  if (type < 1 || static_cast<size_t>(type) > Types().size()) return nullptr;
  return &Types()[static_cast<size_t>(type) - 1];
}

zend_long next_handle = 1;

}  // namespace

extern "C" {

int zend_register_list_destructors_ex(rsrc_dtor_func_t ld, rsrc_dtor_func_t pld,
                                      const char* type_name,
                                      int module_number) {
  (void)pld;
  (void)module_number;
  // Re-registration (an engine restarted in one process) reuses the id.
  for (size_t i = 0; i < Types().size(); i++) {
    if (Types()[i].dtor == ld &&
        Types()[i].name == (type_name ? type_name : "")) {
      return static_cast<int>(i) + 1;
    }
  }
  Types().push_back({ld, type_name != nullptr ? type_name : ""});
  return static_cast<int>(Types().size());
}

zend_resource* zend_register_resource(void* rsrc_pointer, int rsrc_type) {
  auto* res = static_cast<zend_resource*>(emalloc(sizeof(zend_resource)));
  GC_SET_REFCOUNT(res, 1);
  GC_TYPE_INFO(res) = GC_RESOURCE;
  res->handle = next_handle++;
  res->type = rsrc_type;
  res->ptr = rsrc_pointer;
  return res;
}

void zend_list_close(zend_resource* res) {
  if (res->type < 0) return;  // closed already
  const ResourceType* type = TypeOf(res->type);
  if (type != nullptr && type->dtor != nullptr) type->dtor(res);
  res->ptr = nullptr;
  res->type = -1;
}

void zend_list_delete(zend_resource* res) {
  if (GC_DELREF(res) == 0) {
    zend_list_close(res);
    efree(res);
  }
}

const char* zend_rsrc_list_get_rsrc_type(zend_resource* res) {
  const ResourceType* type = TypeOf(res->type);
  return type != nullptr ? type->name.c_str() : nullptr;
}

void* zend_fetch_resource2(zend_resource* res, const char* resource_type_name,
                           int resource_type1, int resource_type2) {
  if (res != nullptr &&
      (res->type == resource_type1 || res->type == resource_type2)) {
    return res->ptr;
  }
  if (resource_type_name != nullptr) {
    zend_type_error("supplied resource is not a valid %s resource",
                    resource_type_name);
  }
  return nullptr;
}

void* zend_fetch_resource(zend_resource* res, const char* resource_type_name,
                          int resource_type) {
  return zend_fetch_resource2(res, resource_type_name, resource_type,
                              resource_type);
}

void* zend_fetch_resource2_ex(zval* res, const char* resource_type_name,
                              int resource_type1, int resource_type2) {
  if (res == nullptr || Z_TYPE_P(res) != IS_RESOURCE) {
    if (resource_type_name != nullptr) {
      zend_type_error("Supplied resource is not a valid %s resource",
                      resource_type_name);
    }
    return nullptr;
  }
  return zend_fetch_resource2(Z_RES_P(res), resource_type_name, resource_type1,
                              resource_type2);
}

void* zend_fetch_resource_ex(zval* res, const char* resource_type_name,
                             int resource_type) {
  return zend_fetch_resource2_ex(res, resource_type_name, resource_type,
                                 resource_type);
}

}  // extern "C"
