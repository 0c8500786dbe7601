// Session time zones: which names parse, and instant <-> wall-clock conversions, including
// daylight-saving gaps and overlaps when the system has zone files.
#include "common/types/time_zone.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace eddy {
namespace {

constexpr int64_t kHour = 3600 * 1000;

TEST(SessionTimeZone, DefaultIsUtc) {
  SessionTimeZone z;
  EXPECT_EQ(z.name(), "UTC");
  EXPECT_TRUE(z.IsUtc());
  EXPECT_EQ(z.ToLocal(4001, 3), 4001);
  EXPECT_EQ(z.FromLocal(4001, 3), 4001);
}

TEST(SessionTimeZone, FixedOffsetsInEverySpelling) {
  for (const char* name : {"GMT+08:00", "+08:00", "UTC+8", "+0800", "GMT+08"}) {
    absl::StatusOr<SessionTimeZone> z = SessionTimeZone::Parse(name);
    ASSERT_TRUE(z.ok()) << name << ": " << z.status();
    EXPECT_EQ(z->name(), name);
    EXPECT_FALSE(z->IsUtc());
    EXPECT_EQ(z->ToLocal(4001, 3), 8 * kHour + 4001) << name;
    EXPECT_EQ(z->FromLocal(8 * kHour + 4001, 3), 4001) << name;
  }
  absl::StatusOr<SessionTimeZone> west = SessionTimeZone::Parse("GMT-03:30");
  ASSERT_TRUE(west.ok());
  EXPECT_EQ(west->ToLocal(0, 6), -(3 * 3600 + 1800) * int64_t{1000000});
  for (const char* utc : {"UTC", "utc", "GMT", "Z", "+00:00"}) {
    absl::StatusOr<SessionTimeZone> z = SessionTimeZone::Parse(utc);
    ASSERT_TRUE(z.ok()) << utc;
    EXPECT_TRUE(z->IsUtc()) << utc;
  }
}

TEST(SessionTimeZone, UnknownNamesAreErrors) {
  for (const char* bad : {"Mars/Base", "", "+25:00", "GMT+8:75", "../etc/passwd", "/etc/passwd"}) {
    absl::StatusOr<SessionTimeZone> z = SessionTimeZone::Parse(bad);
    ASSERT_FALSE(z.ok()) << bad;
    EXPECT_NE(z.status().message().find("unknown time zone"), std::string::npos);
  }
}

TEST(SessionTimeZone, DaylightSavingGapsMoveLaterAndOverlapsTakeTheEarlierOffset) {
  if (!std::filesystem::exists("/usr/share/zoneinfo/America/Los_Angeles")) {
    GTEST_SKIP() << "no zone files";
  }
  absl::StatusOr<SessionTimeZone> la = SessionTimeZone::Parse("America/Los_Angeles");
  ASSERT_TRUE(la.ok()) << la.status();
  // 2021-03-14 00:00:00 PST is 08:00 UTC (Flink's example epoch 1615708800000).
  const int64_t midnight_utc = 1615708800000;
  const int64_t midnight_local = midnight_utc - 8 * kHour;
  EXPECT_EQ(la->ToLocal(midnight_utc, 3), midnight_local);
  EXPECT_EQ(la->FromLocal(midnight_local, 3), midnight_utc);
  // 02:30 does not exist that day: it is 03:30 PDT, 10:30 UTC.
  EXPECT_EQ(la->FromLocal(midnight_local + 2 * kHour + kHour / 2, 3),
            midnight_utc + 2 * kHour + kHour / 2);
  // After the change the offset is -7 h.
  EXPECT_EQ(la->ToLocal(midnight_utc + 3 * kHour, 3), midnight_local + 4 * kHour);
  // 2021-11-07 01:30 happens twice; the first (PDT, 08:30 UTC) is taken.
  const int64_t nov7_local = 1636243200000;  // 2021-11-07 00:00 as a wall clock in ms
  EXPECT_EQ(la->FromLocal(nov7_local + kHour + kHour / 2, 3),
            nov7_local + kHour + kHour / 2 + 7 * kHour);
}

TEST(SessionTimeZone, WallClockProgressNeverGoesBackWhereTheClocksTurnBack) {
  if (!std::filesystem::exists("/usr/share/zoneinfo/America/Los_Angeles")) {
    GTEST_SKIP() << "no zone files";
  }
  absl::StatusOr<SessionTimeZone> la = SessionTimeZone::Parse("America/Los_Angeles");
  ASSERT_TRUE(la.ok()) << la.status();
  // 2021-11-07: at 09:00 UTC (02:00 PDT) the clocks go back to 01:00 PST.
  const int64_t nov7_local = 1636243200000;  // 2021-11-07 00:00 as a wall clock in ms
  const int64_t turn_back_utc = nov7_local + 9 * kHour;
  // Far from the change: the wall clock.
  EXPECT_EQ(la->WallClockProgress(turn_back_utc - 2 * kHour), nov7_local);  // 00:00 PDT
  // In the hour before it, stays just below 01:00, the hour that repeats.
  EXPECT_EQ(la->WallClockProgress(turn_back_utc - kHour), nov7_local + kHour - 1);
  EXPECT_EQ(la->WallClockProgress(turn_back_utc - 1), nov7_local + kHour - 1);
  // From the change on, the wall clock again (01:00 PST).
  EXPECT_EQ(la->WallClockProgress(turn_back_utc), nov7_local + kHour);
  int64_t last = la->WallClockProgress(turn_back_utc - 2 * kHour);
  for (int64_t t = turn_back_utc - 2 * kHour; t < turn_back_utc + 2 * kHour; t += 60000) {
    const int64_t now = la->WallClockProgress(t);
    EXPECT_GE(now, last) << t;
    last = now;
  }
  // A fixed offset is the wall clock.
  absl::StatusOr<SessionTimeZone> east = SessionTimeZone::Parse("GMT+08:00");
  ASSERT_TRUE(east.ok());
  EXPECT_EQ(east->WallClockProgress(0), 8 * kHour);
}

}  // namespace
}  // namespace eddy
