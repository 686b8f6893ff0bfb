import { formatTime } from "./format";

export function Time({ value }: { value: Date }) {
  return <time dateTime={value.toISOString()}>{formatTime(value)}</time>;
}
