// Parsing DATE, TIME and TIMESTAMP text ('2024-01-31', '12:34:56.789', '2024-01-31 10:00:00.123'),
// shared by SQL literals, CAST from STRING and the text formats so all accept the same forms.
#pragma once

#include <cstdint>
#include <string_view>

namespace eddy {

// 'yyyy-mm-dd' (surrounding blanks ignored) into days since 1970-01-01; false when malformed or not
// a real calendar day (e.g. 2024-02-30).
bool ParseDateText(std::string_view s, int32_t* days);

// 'yyyy-mm-dd[( |T)hh:mm[:ss[.fffffffff]]]' into milliseconds since the epoch; digits below
// milliseconds are truncated.
bool ParseTimestampText(std::string_view s, int64_t* millis);

// The same text as a TIMESTAMP(precision) value (see timestamp_precision.h), digits beyond the
// precision truncated; `fraction_digits` (when given) receives how many fractional digits the
// text has (a literal's precision). False when malformed or out of the unit's range.
bool ParseTimestampText(std::string_view s, int precision, int64_t* value, int* fraction_digits);

// 'hh:mm[:ss[.fffffffff]]' (surrounding blanks ignored; hour 0..23) into milliseconds of the day,
// digits beyond `precision` (and beyond milliseconds) dropped; `fraction_digits` (when given)
// receives how many fractional digits the text has (a literal's precision). False when malformed.
bool ParseTimeText(std::string_view s, int precision, int32_t* millis_of_day, int* fraction_digits);

}  // namespace eddy
