#include "json/history_json.h"

#include <cstdio>

namespace bookforge::json {

Json to_json(const store::MonthResults& m, Style style) {
  char month[16];
  std::snprintf(month, sizeof month, "%04d-%02d", m.year, m.month);
  Json out{{"month", month}, {"white", m.white}, {"draws", m.draws}, {"black", m.black}};
  if (style == Style::kCli) out["games"] = m.games;
  return out;
}

Json to_json(const store::History& history, Style style) {
  Json months = Json::array();
  for (const store::MonthResults& m : history.months) months.push_back(to_json(m, style));
  if (style == Style::kApi) return months;
  return Json{{"months", std::move(months)}, {"undated", history.undated}};
}

}  // namespace bookforge::json
