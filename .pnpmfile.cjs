// pnpm hooks of this workspace.
//
// beforePacking: the manifest of every tarball (`pnpm pack`, `pnpm publish`, so `changeset publish`) leaves out
// the "@exchange-kit/source" export condition. In the workspace it points tests and type-checks at a package's
// src/*.ts (vitest.shared.ts, tsconfig.base.json), so nothing is built before them; tarballs ship dist/ without the
// sources, where the condition would name missing files (no checker flags a custom condition, so nothing else
// would notice), and users never ask for it. scripts/check-packages.mjs checks every tarball's manifest for it.
// (pnpm records this file's checksum in pnpm-lock.yaml: after editing it, run `pnpm install`.)
"use strict";

const sourceCondition = "@exchange-kit/source";

/** An exports map (or any part of one) without the source condition. */
function withoutSourceCondition(target) {
  if (Array.isArray(target)) return target.map(withoutSourceCondition);
  if (typeof target !== "object" || target === null) return target;
  return Object.fromEntries(
    Object.entries(target)
      .filter(([key]) => key !== sourceCondition)
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

/** The manifest as published. */
function beforePacking(pkg) {
  if (pkg.exports !== undefined) pkg.exports = withoutSourceCondition(pkg.exports);
  return pkg;
}

module.exports = { hooks: { beforePacking } };
