// The one table of accepted ranges for the numbers of scenarios and catalog records, by unit.
// `validate` and `run` read every field through the same strict parsers, which take their
// bounds from here, so the two cannot disagree. docs/scenario.md ("Limits") and
// pricing-data/README.md show this table and say why each ceiling is where it is: generous
// (10 to 1,000 times the largest real figure) but finite, so that a slip of a few orders of
// magnitude (a price x1e12, a PUE of 1.8e19) is an error naming the field, never a quiet
// "$0" or "inf" in a report. Example: the dearest instance-hour sold today is about $100 (8 x
// B200); kUsdPerInstanceHour allows 1,000 times that.
#pragma once

#include "core/io/json_reader.hpp"

namespace tco::limits {

// Money.
inline constexpr Bounds kUsdPerInstanceHour{0.0, 1e5};  // a cloud price per instance-hour
inline constexpr Bounds kUsdPerGpuHour{0.0, 1e4};       // a value of a GPU-hour (waiting cost)
inline constexpr Bounds kUsdPerItem{0.0, 1e8};          // a server, or a per-node extra (network, install)
inline constexpr Bounds kUsdPerSite{0.0, 1e11};         // a one-off site cost (room capex)
inline constexpr Bounds kUsdPerNodeMonth{0.0, 1e7};     // a lease
inline constexpr Bounds kUsdPerRackMonth{0.0, 1e6};
inline constexpr Bounds kUsdPerKwMonth{0.0, 1e4};       // colocation, demand charges
inline constexpr Bounds kUsdPerKwh{0.0, 10.0};          // the dearest retail power is ~$0.6/kWh
inline constexpr Bounds kUsdPerGb{0.0, 100.0};          // egress
inline constexpr Bounds kUsdPerFteYear{0.0, 1e8};
// A rented cluster's hidden costs (models/catalog/hidden_costs.hpp). Storage lists at $0.02-0.30 per
// GiB-month; a monthly fee (network) and one-time setup are held to a large site's figures; an
// engineer-hour is $50-300.
inline constexpr Bounds kStorageGib{0.0, 1e10};          // 10 EiB
inline constexpr Bounds kUsdPerGibMonth{0.0, 100.0};
inline constexpr Bounds kUsdPerMonth{0.0, 1e9};
inline constexpr Bounds kEngineerHoursPerMonth{0.0, 1e6};
inline constexpr Bounds kUsdPerEngineerHour{0.0, 1e4};
// Goodput: at least 1% (below it the work's GPU-hours would be over 100x the paid ones).
inline constexpr Bounds kGoodput{0.01, 1.0};

// Price processes (models/price_path/price_process.hpp). The H100's steepest year (2023-24,
// $8-12 to $2.85) is a log-change of about -1.2; a volatility of 3 a year and 12 jumps a year of
// up to e^{+-3} (x20 or /20 each) are far beyond any market seen, and keep exp() finite.
inline constexpr Bounds kPriceVolatilityPerYear{0.0, 3.0};
inline constexpr Bounds kPriceJumpsPerYear{0.0, 12.0};
inline constexpr Bounds kPriceJumpLogSize{-3.0, 3.0};
// A regime's price level relative to the other (normalised to a mean of one): 0.01-100 spans a
// 10,000-fold gap between glut and shortage, far past the H100's ~4x.
inline constexpr Bounds kPriceRegimeLevel{0.01, 100.0};
// A next generation's step on its predecessor's rental and resale prices (models/next_generation/):
// used H100 boards fell from over $40k to $22-25k (x0.55) when B200s ramped; a factor above 1 (a
// shortage of the old part) is allowed up to x10, and 0 (a worthless board, a free rental) is not.
inline constexpr Bounds kGenerationStepFactor{0.0, 10.0, true};
inline constexpr long kMaxArrivalMonth = 600;  // the longest horizon

// Power and cooling.
inline constexpr Bounds kNodeKw{0.0, 1000.0, true};   // a node's peak draw (a DGX B200: 14.3 kW)
inline constexpr Bounds kNodeIdleKw{0.0, 1000.0};
inline constexpr Bounds kRackKw{0.0, 1000.0, true};   // a rack's limit (the densest today: ~130 kW)
inline constexpr Bounds kPue{1.0, 5.0};               // 5 is a very poor room; 1.0 is ideal
inline constexpr Bounds kPueSlopePerC{0.0, 1.0};
inline constexpr Bounds kCfmPerRack{0.0, 1e7, true};
inline constexpr Bounds kDeltaTF{0.0, 200.0, true};
inline constexpr Bounds kGCo2PerKwh{0.0, 1e4};        // coal is ~1,000
inline constexpr Bounds kKgCo2PerServer{0.0, 1e6};    // embodied: an 8-GPU server is ~10^3-10^4 kg
inline constexpr Bounds kUsdPerTonne{0.0, 1e5};       // carbon prices are $10s-$100s; social cost ~$200
inline constexpr Bounds kGpuTdpW{0.0, 1e5, true};
inline constexpr Bounds kGpuMemoryGb{0.0, 1e6, true};
inline constexpr Bounds kGpuPerfRelative{0.0, 1e3, true};

// People, counts and demand.
inline constexpr Bounds kFte{0.0, 1e5};               // fixed staff of a site
inline constexpr Bounds kFtePerNode{0.0, 100.0};
inline constexpr Bounds kGpus{0.0, 1e7};              // GPUs of demand at one time
inline constexpr Bounds kGpusPerNode{0.0, 1e4, true};
inline constexpr Bounds kDemandScale{0.0, 1e6};
inline constexpr Bounds kJobsPerHour{0.0, 1e6, true};
inline constexpr Bounds kEgressGbPerGpuHour{0.0, 1e6};
inline constexpr Bounds kWeekendFactor{0.0, 100.0};
inline constexpr Bounds kGrowthPerYear{-1.0, 10.0, true};  // -100% .. +1,000% a year
inline constexpr Bounds kEscalationPerYear{-0.5, 10.0};    // prices and wages
inline constexpr Bounds kDeadlineFactor{1.0, 1000.0};      // a deadline in job durations
inline constexpr Bounds kMixWeight{0.0, 1e9};              // a relative weight of a mix
inline constexpr long kMaxGpusPerJob = 1'000'000;
inline constexpr long kMaxCount = 1'000'000;          // GPUs per instance or server
inline constexpr long kMaxNodes = 100'000;          // nodes of one plan (on-prem or spare)

// Time.
inline constexpr Bounds kHours{0.0, 1e5};             // delays, waits, checkpoints (~11 years)
inline constexpr Bounds kTokensPerRequest{0.0, 1e8, true};  // a request\'s input or output tokens
inline constexpr Bounds kPositiveHours{0.0, 1e5, true};
inline constexpr Bounds kHoldHours{0.0, 168.0, true};  // a time-shift hold: at most a week, as the replay's
                                                       // search (a tariff repeats weekly)
inline constexpr Bounds kSeconds{0.0, 1e6};           // billing granularity, notices (~11 days)
inline constexpr Bounds kPositiveSeconds{0.0, 1e6, true};
inline constexpr Bounds kDays{0.0, 36500.0};          // calendar offsets (100 years)
inline constexpr Bounds kPositiveDays{0.0, 36500.0, true};
inline constexpr Bounds kMonths{0.0, 240.0};          // a delivery slip (20 years; grid connections take 3)
inline constexpr double kMaxSlipMonths = 1200.0;      // a drawn slip is cut here (past any horizon)
inline constexpr Bounds kLogSigma{0.0, 5.0};          // sigma of a log (5: a P95/P50 ratio of ~3,800)
// Commitments (models/commitment/commitment.hpp). AWS sells capacity blocks of 1 to 182 days,
// bookable up to 8 weeks ahead; a savings plan or a take-or-pay contract runs 1 to 3 years
// (5 allows a long neocloud contract).
inline constexpr long kMaxCapacityBlockDays = 182;
inline constexpr long kMaxBookingLeadDays = 56;
inline constexpr long kMaxCommitmentTermMonths = 60;
inline constexpr Bounds kUsdPerHourCommitment{0.0, 1e7, true};  // a savings plan's USD per hour
inline constexpr Bounds kSiteMw{0.0, 1e5, true};      // a site's IT power (the largest campuses: ~5 GW)
// The request replay (models/serving/request_workload.hpp): at most a year of requests, 1,000
// paths, and a replica of 100,000 slots (the largest measured concurrencies are ~1,000).
inline constexpr long kMaxReplayHours = 8'760;
inline constexpr long kMaxReplayPaths = 1'000;
inline constexpr long kMaxConcurrency = 100'000;
inline constexpr long kMaxScaledReplicas = 10'000;    // rented replicas launched at once
inline constexpr Bounds kMinutes{0.0, 1440.0};        // a replica's start-up or idle time (a day)

}  // namespace tco::limits
