// zend-async-ref core: the extension's version.

#ifndef ZAR_CORE_VERSION_H_
#define ZAR_CORE_VERSION_H_

namespace zar::core {

// The version of the reference extension (module entry version and the
// module names it registers under).
inline constexpr char kVersion[] = "0.1.0";

}  // namespace zar::core

#endif  // ZAR_CORE_VERSION_H_
