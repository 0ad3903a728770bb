// The schema comparers, one per JSON Schema keyword or keyword family, in the order their changes are reported.
// `nullable` is no keyword of OpenAPI 3.1: a nullable schema lists "null" among its types (typeRule).
import { additionalPropertiesRule } from "./additional-properties.ts";
import { boundsRule } from "./bounds.ts";
import { compositionRule } from "./composition.ts";
import { defaultRule } from "./default.ts";
import { deprecatedRule } from "./deprecated.ts";
import { formatRule } from "./format.ts";
import { itemsRule } from "./items.ts";
import { patternRule } from "./pattern.ts";
import { propertiesRule } from "./properties.ts";
import type { SchemaRule } from "./rule.ts";
import { typeRule } from "./type.ts";
import { valuesRule } from "./values.ts";
import { wholeKeywordsRule } from "./whole-keywords.ts";

export type { SchemaPair, SchemaRule } from "./rule.ts";

export const SCHEMA_RULES: readonly SchemaRule[] = [
  typeRule,
  formatRule,
  valuesRule,
  boundsRule,
  patternRule,
  wholeKeywordsRule,
  defaultRule,
  deprecatedRule,
  propertiesRule,
  additionalPropertiesRule,
  itemsRule,
  compositionRule,
];
