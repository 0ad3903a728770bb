// What a thrown value answers, wherever a request is answered (http/server.ts, the dashboard's calls).
import { ApiError } from "../domain/api-error.js";
import { isStoreUnavailable } from "../store/postgres/pg-database.js";

/**
 * What a thrown value answers: an ApiError as itself; a database that cannot be reached, 503
 * SYS_SERVICE_UNAVAILABLE (the request changed nothing: its transaction never committed; the store reports the
 * outage once); anything else, reported, as 500 SYS_INTERNAL_ERROR.
 */
export function errorAnswer(caught: unknown, report: (detail: string) => void): ApiError {
  if (caught instanceof ApiError) return caught;
  // Not reported per request: the store says once when its database drops and once when it is back.
  if (isStoreUnavailable(caught)) return new ApiError(503, "SYS_SERVICE_UNAVAILABLE", "Service unavailable");
  report(caught instanceof Error ? (caught.stack ?? caught.message) : String(caught));
  return new ApiError(500, "SYS_INTERNAL_ERROR", "Internal Server Error");
}
