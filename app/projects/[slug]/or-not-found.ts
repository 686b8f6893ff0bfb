import { notFound } from "next/navigation";
import { AppError } from "@/lib/core/errors";

/** Loads a page's resource; an unknown id renders the 404 page instead of an error. */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
