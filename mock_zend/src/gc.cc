// zend-async-ref: mock Zend engine. The cycle collector (zend_gc.h).
//
// A collection is a whole-heap analysis, run only when called:
//   1. The graph: every live object of the store is a node; its edges are
//      the refcounted values its get_gc handler reports (the table and
//      the returned HashTable, which counts as part of the object). Arrays
//      and references met on the way are nodes too, with their elements as
//      edges, so a value shared by several holders is counted once per
//      holder, exactly as its refcount counts it.
//   2. internal(n) = edges into n; a node with refcount > internal(n) is
//      referenced from outside the graph (C code, a zval on the stack) and
//      is a root. Everything reachable from a root is alive; objects that
//      are not are garbage.
//   3. Freeing: each garbage object gets one extra reference; destructors
//      run (once per object); if any ran, the analysis is redone and
//      objects a destructor resurrected are dropped from the garbage; the
//      rest get free_obj (once); then the extra references are released,
//      which frees the memory and handle of each object that reaches zero.
// An object whose get_gc under-reports stays alive (and is reported at
// request shutdown); objects already freed (IS_OBJ_FREE_CALLED) are left
// out of the graph.

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "engine_internal.h"

namespace {

bool gc_is_enabled = true;
bool gc_is_protected = false;

struct Node {
  zend_refcounted* counted = nullptr;
  uint8_t type = IS_UNDEF;  // IS_OBJECT, IS_ARRAY or IS_REFERENCE
  uint32_t internal = 0;
  bool reachable = false;
  std::vector<uint32_t> edges;
};

class Graph {
 public:
  // `biased` objects carry one reference the analysis must not count.
  explicit Graph(const absl::flat_hash_set<zend_object*>& biased)
      : biased_(biased) {}

  // The garbage objects, in store order.
  std::vector<zend_object*> FindGarbage() {
    const zend_objects_store& store = EG(objects_store);
    for (uint32_t i = 1; i < store.top; i++) {
      zend_object* object = store.object_buckets[i];
      if (IsCollectable(object)) {
        NodeFor(reinterpret_cast<zend_refcounted*>(object), IS_OBJECT);
      }
    }
    for (size_t i = 0; i < nodes_.size(); i++) Expand(static_cast<uint32_t>(i));
    MarkFromRoots();
    std::vector<zend_object*> garbage;
    for (const Node& node : nodes_) {
      if (node.type == IS_OBJECT && !node.reachable) {
        garbage.push_back(reinterpret_cast<zend_object*>(node.counted));
      }
    }
    return garbage;
  }

 private:
  static bool IsCollectable(zend_object* object) {
    return object != nullptr && IS_OBJ_VALID(object) &&
           !(GC_FLAGS(object) & IS_OBJ_FREE_CALLED);
  }

  uint32_t NodeFor(zend_refcounted* counted, uint8_t type) {
    auto [it, inserted] =
        index_.try_emplace(counted, static_cast<uint32_t>(nodes_.size()));
    if (inserted) {
      Node node;
      node.counted = counted;
      node.type = type;
      nodes_.push_back(std::move(node));
    }
    return it->second;
  }

  void AddEdge(uint32_t from, zval* value) {
    if (!Z_REFCOUNTED_P(value)) return;
    const uint8_t type = Z_TYPE_P(value);
    if (type == IS_OBJECT && !IsCollectable(Z_OBJ_P(value))) return;
    if (type != IS_OBJECT && type != IS_ARRAY && type != IS_REFERENCE) return;
    const uint32_t to = NodeFor(Z_COUNTED_P(value), type);
    nodes_[from].edges.push_back(to);
  }

  void AddHashEdges(uint32_t from, HashTable* ht) {
    zval* value;
    ZEND_HASH_FOREACH_VAL(ht, value) { AddEdge(from, value); }
    ZEND_HASH_FOREACH_END();
  }

  void Expand(uint32_t n) {
    zend_refcounted* counted = nodes_[n].counted;
    switch (nodes_[n].type) {
      case IS_OBJECT: {
        auto* object = reinterpret_cast<zend_object*>(counted);
        if (object->handlers->get_gc == nullptr) break;
        zval* table = nullptr;
        int count = 0;
        HashTable* ht = object->handlers->get_gc(object, &table, &count);
        // The table may be the shared gc buffer: read it before anything
        // else calls a get_gc handler.
        for (int i = 0; i < count; i++) AddEdge(n, &table[i]);
        if (ht != nullptr) AddHashEdges(n, ht);
        break;
      }
      case IS_ARRAY:
        AddHashEdges(n, reinterpret_cast<HashTable*>(counted));
        break;
      case IS_REFERENCE:
        AddEdge(n, &reinterpret_cast<zend_reference*>(counted)->val);
        break;
    }
  }

  uint32_t RefcountOf(const Node& node) const {
    uint32_t refcount = GC_REFCOUNT(node.counted);
    if (node.type == IS_OBJECT &&
        biased_.contains(reinterpret_cast<zend_object*>(node.counted))) {
      refcount--;
    }
    return refcount;
  }

  void MarkFromRoots() {
    for (const Node& node : nodes_) {
      for (uint32_t to : node.edges) nodes_[to].internal++;
    }
    std::vector<uint32_t> pending;
    for (uint32_t i = 0; i < nodes_.size(); i++) {
      if (RefcountOf(nodes_[i]) > nodes_[i].internal) {
        nodes_[i].reachable = true;
        pending.push_back(i);
      }
    }
    while (!pending.empty()) {
      const uint32_t n = pending.back();
      pending.pop_back();
      for (uint32_t to : nodes_[n].edges) {
        if (!nodes_[to].reachable) {
          nodes_[to].reachable = true;
          pending.push_back(to);
        }
      }
    }
  }

  const absl::flat_hash_set<zend_object*>& biased_;
  std::vector<Node> nodes_;
  absl::flat_hash_map<zend_refcounted*, uint32_t> index_;
};

bool HasUserDestructor(const zend_object* object) {
  return object->handlers->dtor_obj != zend_objects_destroy_object ||
         object->ce->destructor != nullptr;
}

}  // namespace

extern "C" {

int zend_gc_collect_cycles(void) {
  if (gc_is_protected) return 0;
  const absl::flat_hash_set<zend_object*> no_bias;
  std::vector<zend_object*> garbage = Graph(no_bias).FindGarbage();
  if (garbage.empty()) return 0;

  const std::vector<zend_object*> held = garbage;
  for (zend_object* object : held) GC_ADDREF(object);

  bool destructors_ran = false;
  for (zend_object* object : held) {
    if (GC_FLAGS(object) & IS_OBJ_DESTRUCTOR_CALLED) continue;
    GC_ADD_FLAGS(object, IS_OBJ_DESTRUCTOR_CALLED);
    if (HasUserDestructor(object)) {
      object->handlers->dtor_obj(object);
      destructors_ran = true;
    }
  }

  absl::flat_hash_set<zend_object*> doomed(held.begin(), held.end());
  if (destructors_ran) {
    const std::vector<zend_object*> still_garbage = Graph(doomed).FindGarbage();
    const absl::flat_hash_set<zend_object*> still(still_garbage.begin(),
                                                  still_garbage.end());
    for (zend_object* object : held) {
      if (!still.contains(object)) doomed.erase(object);  // resurrected
    }
  }

  for (zend_object* object : held) {
    if (!doomed.contains(object) || (GC_FLAGS(object) & IS_OBJ_FREE_CALLED)) {
      continue;
    }
    GC_ADD_FLAGS(object, IS_OBJ_FREE_CALLED);
    object->handlers->free_obj(object);
  }

  int freed = 0;
  for (zend_object* object : held) {
    if (GC_REFCOUNT(object) == 1) freed++;
    OBJ_RELEASE(object);
  }
  return freed;
}

bool gc_enabled(void) { return gc_is_enabled; }

bool gc_protect(bool protect) {
  const bool previous = gc_is_protected;
  gc_is_protected = protect;
  return previous;
}

bool gc_protected(void) { return gc_is_protected; }

bool gc_enable(bool enable) {
  const bool previous = gc_is_enabled;
  gc_is_enabled = enable;
  return previous;
}

}  // extern "C"
