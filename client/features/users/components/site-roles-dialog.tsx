// Sites (a user's card on the Users page): where the user's role holds. Every site (their
// role, at sites added later too), or chosen sites with a role at each and nothing at the
// others. The server's refusal (a role beyond theirs, a site the manager doesn't manage) is
// shown in place and nothing changes.
import { useEffect, useId } from 'react';
import { useMachine } from '@xstate/react';
import type { Role, User } from '../../../../shared/accounts';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { TruckLoader } from '../../../components/truck-loader';
import { siteRolesMachine, siteRolesOf, type SitesMode } from '../site-roles.machine';
import { roleName, siteRoleChoices } from '../user-list';

export function SiteRolesDialog({
  user,
  roles,
  onClose,
  onSaved,
}: {
  user: User;
  roles: Role[];
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
  const [state, send] = useMachine(siteRolesMachine, { input: { user } });
  const formId = useId();
  const { sites, mode, picks, error, saved } = state.context;
  const saving = state.matches('saving');
  const name = user.name || user.email || 'this user';
  const own = roleName(user.role, roles);
  const choices = siteRoleChoices(roles, user.role);
  const chosen = siteRolesOf(state.context);

  useEffect(() => {
    if (state.matches('done') && saved) onSaved(saved);
  }, [state, saved, onSaved]);

  const modes: Array<{ mode: SitesMode; label: string; hint: string }> = [
    { mode: 'all', label: 'Every site', hint: `${own} at every site, and at sites added later` },
    { mode: 'some', label: 'Chosen sites', hint: 'A role at each site you choose, nothing at the others' },
  ];

  return (
    <Modal
      title={`Sites for ${name}`}
      description={`Where ${name}'s role holds. Their role (${own}) is the most they may do at any site.`}
      onClose={onClose}
      busy={saving}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className="btn btn-primary"
            disabled={saving || !state.matches('editing')}
          >
            {saving ? 'Saving...' : 'Save'}
          </button>
        </>
      }
    >
      {state.matches('loading') ? <TruckLoader label="Loading sites..." fullScreen={false} /> : null}
      {state.matches('failed') ? (
        <ErrorBox title="Failed to load sites" message={error ?? ''} onRetry={() => send({ type: 'RETRY' })} />
      ) : null}
      {state.matches('editing') || saving ? (
        <form
          id={formId}
          className="form-stack site-roles-form"
          onSubmit={(event) => {
            event.preventDefault();
            send({ type: 'SAVE' });
          }}
        >
          <fieldset className="site-roles-modes" disabled={saving}>
            <legend className="field-label">Where their role holds</legend>
            {modes.map((m) => (
              <label key={m.mode} className={`site-roles-mode${mode === m.mode ? ' active' : ''}`}>
                <input
                  type="radio"
                  name={`${formId}-mode`}
                  value={m.mode}
                  checked={mode === m.mode}
                  onChange={() => send({ type: 'MODE', mode: m.mode })}
                />
                <span className="site-roles-mode-text">
                  <span className="site-roles-mode-label">{m.label}</span>
                  <span className="field-hint">{m.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>

          {mode === 'some' ? (
            <fieldset className="site-roles-sites" disabled={saving}>
              <legend className="field-label">Role at each site</legend>
              {sites.length === 0 ? <p className="field-hint">No sites to choose from.</p> : null}
              <ul>
                {sites.map((site) => {
                  const selectId = `${formId}-${site.id}`;
                  return (
                    <li key={site.id} className="site-roles-site">
                      <label htmlFor={selectId} className="site-roles-site-name">
                        {site.name}
                        <span className="muted"> {site.code}</span>
                        {site.archivedAt ? <span className="badge badge-neutral">Archived</span> : null}
                      </label>
                      <select
                        id={selectId}
                        className="input input-sm"
                        value={picks[site.id] ?? ''}
                        onChange={(e) => send({ type: 'PICK', siteId: site.id, role: e.target.value })}
                      >
                        <option value="">No access</option>
                        {choices.map((role) => (
                          <option key={role.id} value={role.id}>
                            {role.name}
                          </option>
                        ))}
                      </select>
                    </li>
                  );
                })}
              </ul>
              {chosen && chosen.length === 0 ? (
                <p className="field-hint site-roles-none" role="status">
                  {name} will see no stock at any site.
                </p>
              ) : null}
            </fieldset>
          ) : null}
          {error ? <ErrorBox message={error} /> : null}
        </form>
      ) : null}
    </Modal>
  );
}
