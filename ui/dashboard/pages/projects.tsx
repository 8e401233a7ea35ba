import { useState } from 'react';
import { DialogButton } from '../controls/dialog.tsx';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import type { Page } from '../api.ts';
import type { AdminProject } from '../project.ts';
import { Async, Empty, Field, Form, Section, formatTime, useApi, type Loaded, TableScroll } from '../kit.tsx';
import { Link, useRouter } from '../router.tsx';

/** The owner's projects (`GET /internal/projects`) and the create form (`POST /internal/projects`). */
export function ProjectList(props: { projects: Loaded<Page<AdminProject>> }) {
  const api = useApi();
  const { navigate } = useRouter();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const nameError = touched && !name.trim() ? 'Please give the project a name.' : name.length > 256 ? 'At most 256 characters.' : null;
  const createForm = (done?: () => void) => (
    <Form
      label="Create a project"
      submit="Create project"
      busyLabel="Creating…"
      onDone={done}
      onSubmit={async () => {
        setTouched(true);
        if (!name.trim()) throw new Error('Please give the project a name.');
        const created = await api.internal('projects.create', {
          body: {
            display_name: name.trim(),
            description: description.trim() || null,
            config: { credential_enabled: true, allow_localhost: true },
          },
        });
        setName('');
        setDescription('');
        setTouched(false);
        props.projects.reload();
        navigate(`/projects/${created.id}`);
      }}
    >
      <Field label="Project name" name="display_name" value={name} onChange={setName} error={nameError} />
      <Field label="Description (optional)" name="description" value={description} onChange={setDescription} />
    </Form>
  );
  const empty = props.projects.data?.items.length === 0;
  return (
    <>
      <div className="d-top">
        <h1>Projects</h1>
      </div>
      <Section
        title="Your projects"
        actions={
          empty ? undefined : (
            <DialogButton label="New project" title="Create a project" icon={<Icon icon={Plus} />}>
              {(close) => createForm(close)}
            </DialogButton>
          )
        }
      >
        <Async state={props.projects} label="Loading projects…">
          {(page) =>
            page.items.length === 0 ? (
              <>
                <Empty>No projects yet. Create your first one below.</Empty>
                {createForm()}
              </>
            ) : (
              <TableScroll label="Projects">
                <table className="d-table" aria-label="Projects">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Description</th>
                      <th>Mode</th>
                      <th>Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((p) => (
                      <tr key={p.id}>
                        <td>
                          <Link to={`/projects/${p.id}`}>{p.display_name}</Link>
                        </td>
                        <td>{p.description ?? ''}</td>
                        <td>{p.is_production_mode ? 'Production' : 'Development'}</td>
                        <td>{formatTime(p.created_at_millis)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </Async>
      </Section>
    </>
  );
}
