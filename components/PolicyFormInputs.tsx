import { EVIDENTIAL_CLASSES, type RetentionPolicy } from "@/lib/evidence/types";
import { policyFieldLabel } from "./policy-labels";

const TTL_FIELD = { NARRATIVE: "ttlNarrative", STRUCTURED: "ttlStructured", SIDE_EFFECTING: "ttlSideEffecting" } as const;

/** A retention policy's fields as form inputs (a proposal's, or hidden copies of a previewed one). */
export function PolicyFormInputs({ policy, hidden }: { policy: RetentionPolicy; hidden?: boolean }) {
  const prefixes = policy.systemConfigPrefixes.join("\n");
  if (hidden) {
    return (
      <>
        <input type="hidden" name="evidenceHorizonDays" value={policy.evidenceHorizonDays} />
        {EVIDENTIAL_CLASSES.map((c) => (
          <input key={c} type="hidden" name={TTL_FIELD[c]} value={policy.ttlDays[c]} />
        ))}
        {policy.evidenceWorkloads ? <input type="hidden" name="evidenceWorkloads" value="on" /> : null}
        <input type="hidden" name="systemConfigPrefixes" value={prefixes} />
      </>
    );
  }
  return (
    <>
      <label>
        Evidence horizon (days)
        <br />
        <input name="evidenceHorizonDays" type="number" min={1} max={36500} defaultValue={policy.evidenceHorizonDays} required />
      </label>
      {EVIDENTIAL_CLASSES.map((c) => (
        <label key={c}>
          {policyFieldLabel(`ttlDays.${c}`)}
          <br />
          <input name={TTL_FIELD[c]} type="number" min={0} max={36500} defaultValue={policy.ttlDays[c]} required />
        </label>
      ))}
      <label style={{ alignSelf: "center" }}>
        <input name="evidenceWorkloads" type="checkbox" value="on" defaultChecked={policy.evidenceWorkloads} /> Evidence workloads
      </label>
      <label style={{ flexBasis: "100%" }}>
        System-config path prefixes (one per line; removing one needs a reason)
        <br />
        <textarea name="systemConfigPrefixes" rows={6} cols={60} defaultValue={prefixes} className="mono" />
      </label>
    </>
  );
}
