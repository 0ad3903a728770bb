// The answers of a request no route takes: 404 for an unknown path, 405 (with Allow) for a known path and
// another method.
import { ApiError } from "./api-error.js";

export function pathNotFound(): ApiError {
  return new ApiError(
    404,
    "NOT_FOUND",
    "Path not found: check the module prefix (/cms/api/v1, /pis/api/v1, /pos/api/v1, /org/api/v1)",
  );
}

export function methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
  return new ApiError(
    405,
    "NOT_FOUND",
    `Method ${method} not allowed on this path; allowed: ${allowed.join(", ")}`,
    { method: [`Use ${allowed.join(" or ")}.`] },
    { Allow: allowed.join(", ") },
  );
}
