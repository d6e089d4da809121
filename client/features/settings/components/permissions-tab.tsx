// Permissions (managers only): the note that only managers change settings, then the
// role/permission matrix, every role against every permission. Roles change on the Roles page.
import { Link } from 'react-router-dom';
import type { Role } from '../../../../shared/accounts';
import { PERMISSIONS } from '../../../../shared/permissions';
import { Icon } from '../../../components/icons';
import { ManagerNote } from './manager-note';

function NoMark() {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">No</span>
    </>
  );
}

export function PermissionsTab({ roles }: { roles: Role[] }) {
  return (
    <div className="permissions-tab">
      <ManagerNote />
      <p className="settings-aside">
        What each role may do. Add or change roles on the <Link to="/roles">Roles</Link> page.
      </p>
      <div className="matrix-wrap">
        <table className="permission-matrix">
          <caption className="visually-hidden">Permissions of each role</caption>
          <thead>
            <tr>
              <th scope="col">Permission</th>
              {roles.map((role) => (
                <th key={role.id} scope="col">
                  {role.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {PERMISSIONS.map((permission) => (
              <tr key={permission.key}>
                <th scope="row">{permission.label}</th>
                {roles.map((role) => {
                  const has = role.permissions.includes(permission.key);
                  return (
                    <td key={role.id} className={has ? 'matrix-yes' : 'matrix-no'}>
                      {has ? <Icon name="check" size={16} title="Yes" /> : <NoMark />}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
