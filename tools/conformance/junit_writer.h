// zend-async-conformance: the report as JUnit XML, the format CI systems
// (GitLab, Jenkins, GitHub's test reporters) display.
//
//   <testsuites name="zend-async-conformance" tests= failures= skipped=
//               errors= time=>
//     <testsuite name="pool" tests= failures= skipped= errors="0" time=>
//       <properties> implementation, version, library, abi </properties>
//       <testcase classname="pool" name="PoolWaitingTest.WaitersServedInOrder"
//                 file= line= time=>
//         <failure message="Joined(log): expected &quot;0 1&quot;, actual …"
//                  type="assertion">
//           tests/pool/waiting_test.cc:202
//           Joined(log)
//             expected: "0 1 2"
//             actual:   "0 2 1"
//         </failure>
//       </testcase>
//     </testsuite>
//     <testsuite name="run"> (only when the run itself failed: failures
//                               outside a behaviour, area table problems)
//   </testsuites>
//
// One testsuite per area (the area is each testcase's classname), one
// testcase per behaviour; a failed behaviour has one <failure> per failed
// assertion, a skipped one <skipped/>. Times are in seconds. Every text is
// XML-escaped; characters XML 1.0 cannot carry (control characters, invalid
// UTF-8) are written as U+FFFD.
//
// Threading: pure functions.

#ifndef ZAR_TOOLS_CONFORMANCE_JUNIT_WRITER_H_
#define ZAR_TOOLS_CONFORMANCE_JUNIT_WRITER_H_

#include <string>
#include <string_view>

#include "tools/conformance/report.h"

namespace zar::conformance {

// `text` escaped for an XML attribute value or element content.
std::string XmlEscape(std::string_view text);

std::string FormatJunit(const Report& report);

}  // namespace zar::conformance

#endif  // ZAR_TOOLS_CONFORMANCE_JUNIT_WRITER_H_
