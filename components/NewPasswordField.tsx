/**
 * The field where a person types a new password, one for every form that sets one (their own on
 * the account page, another's on the admin page): the same bounds and autocomplete hint everywhere.
 * The upper bound is the actions' input limit; the lower one is the server's, passed in.
 */
export function NewPasswordField({ minLength, ariaLabel }: { minLength: number; ariaLabel?: string }) {
  return (
    <label>
      New password
      <br />
      <input
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        minLength={minLength}
        maxLength={256}
        {...(ariaLabel ? { "aria-label": ariaLabel } : {})}
      />
    </label>
  );
}
