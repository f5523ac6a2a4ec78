import { builder } from './builder.js';
import { WORKSPACE_NAME_MAX } from '../resolvers/changes/workspace-name.js';
import { WorkspaceRef } from './workspaces.js';
import { createWorkspace, deleteWorkspace, renameWorkspace, type DeletedWorkspace } from '../resolvers/changes/workspaces.js';
import { fileDomain, type FiledDomain } from '../resolvers/changes/file-domain.js';
import { DomainError } from '../resolvers/domain-error.js';

const WorkspaceNameInput = builder.inputType('WorkspaceNameInput', {
  fields: (t) => ({
    name: t.string({
      required: true,
      description: `1 to ${WORKSPACE_NAME_MAX} characters.`,
      extensions: { jsonSchema: { minLength: 1, maxLength: WORKSPACE_NAME_MAX } },
    }),
  }),
});

const FileDomainInput = builder.inputType('FileDomainInput', {
  fields: (t) => ({ workspaceId: t.int({ required: false, description: 'The folder to file the domain in; null unfiles it.' }) }),
});

const DeletedWorkspaceRef = builder.objectRef<DeletedWorkspace>('DeletedWorkspace').implement({
  fields: (t) => ({
    workspaceId: t.exposeInt('workspaceId'),
    deleted: t.exposeBoolean('deleted'),
    unfiledDomainCount: t.exposeInt('unfiledDomainCount', { description: 'Domains it held; they are kept, filed in no folder.' }),
  }),
});

const FiledDomainRef = builder.objectRef<FiledDomain>('FiledDomain').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    workspaceId: t.exposeInt('workspaceId', { nullable: true }),
    workspaceName: t.exposeString('workspaceName', { nullable: true }),
  }),
});

builder.mutationField('createWorkspace', (t) =>
  t.field({
    type: WorkspaceRef,
    description: 'Creates a folder.',
    authScopes: { write: true },
    args: { input: t.arg({ type: WorkspaceNameInput, required: true }) },
    resolve: (_root, args, ctx) => createWorkspace(args.input, ctx),
  }),
);

builder.mutationField('renameWorkspace', (t) =>
  t.field({
    type: WorkspaceRef,
    description: 'Renames a folder.',
    authScopes: { write: true },
    args: { workspaceId: t.arg.int({ required: true }), input: t.arg({ type: WorkspaceNameInput, required: true }) },
    resolve: (_root, args, ctx) => renameWorkspace(args.workspaceId, args.input, ctx),
  }),
);

builder.mutationField('deleteWorkspace', (t) =>
  t.field({
    type: DeletedWorkspaceRef,
    description: 'Removes a folder; its domains are kept with no folder.',
    authScopes: { write: true },
    args: { workspaceId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => deleteWorkspace(args.workspaceId, ctx),
  }),
);

builder.mutationField('fileDomain', (t) =>
  t.field({
    type: FiledDomainRef,
    description: 'Files a domain into a folder; a null workspaceId unfiles it.',
    authScopes: { write: true },
    args: { domain: t.arg.string({ required: true }), input: t.arg({ type: FileDomainInput, required: true }) },
    resolve: (_root, args, ctx) => {
      if (args.input.workspaceId === undefined)
        throw new DomainError('workspace_id_missing', 'Send {"workspace_id": <id>} to file the domain, or {"workspace_id": null} to unfile it.');
      return fileDomain(args.domain, { workspaceId: args.input.workspaceId }, ctx);
    },
  }),
);
